/**
 * Parent sign-in for the company named by authhash, coming back to `redirect` afterwards (SPEC.md
 * points 2 and 6: logged-out visitors at checkout go to student login with a redirect).
 */
export function studentLoginPath(authhash: string, redirect: string): string {
  return `/admin/students/login?${new URLSearchParams({ authhash, redirect })}`;
}
