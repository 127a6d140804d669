import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { useAuthToken } from '../api/use-session';
import { studentLoginPath } from './student-login-link';

/**
 * A public checkout page is for signed-in parents (SPEC.md point 2): a visitor without a token goes
 * to the company's parent sign-in and comes back here. The page's authhash is remembered.
 */
export function ParentsOnly({
  children,
}: {
  children: (authhash: string, params: URLSearchParams) => ReactNode;
}) {
  const token = useAuthToken();
  const location = useLocation();
  const [params] = useSearchParams();
  const authhash = params.get('authhash') ?? '';

  useEffect(() => {
    if (authhash) api.setAuthHash(authhash);
  }, [authhash]);

  if (!token)
    return <Navigate to={studentLoginPath(authhash, location.pathname + location.search)} replace />;
  return <>{children(authhash, params)}</>;
}

/** Errors show above the form: bring them into view. */
export function scrollToTop(): void {
  window.scrollTo({ top: 0, behavior: 'smooth' });
}
