/**
 * Reloads the page. One place, so tests can replace it: jsdom cannot reload, and
 * `window.location.reload` can be neither reassigned nor spied on there.
 */
export function reloadPage(): void {
  window.location.reload();
}
