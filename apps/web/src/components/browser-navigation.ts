/**
 * Leaves the SPA for another site (a payment provider's page, the test card page's return URL). One place, so tests can replace it:
 * jsdom cannot navigate, and `window.location` cannot be spied on.
 */
export function leaveForUrl(url: string): void {
  window.location.assign(url);
}
