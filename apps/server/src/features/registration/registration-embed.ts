import { EMBED_RESIZE_MESSAGE } from '@tumble/contracts/registration-forms';

/**
 * The embed of a registration form on a provider's own website (SPEC registration-forms embed):
 * a script tag that puts the form in an iframe sized to its content. Which websites may frame it is
 * the company's list of embed origins, sent as CSP `frame-ancestors` (registration-embed.routes.ts).
 */

/** The public page of a form. */
export function registrationLink(publicUrl: string, key: string, authhash: string): string {
  return `${publicUrl}/registration/?f=${encodeURIComponent(key)}&authhash=${encodeURIComponent(authhash)}`;
}

const attribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** The script tag staff paste into their website. */
export function embedSnippet(publicUrl: string, key: string, authhash: string): string {
  return `<script src="${attribute(publicUrl)}/embed/registration.js" data-form="${attribute(key)}" data-authhash="${attribute(authhash)}" async></script>`;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A website origin as browsers send it (`https://www.example.com.au`, `https://example.com:8443`),
 * or null when the text is not one: a path, query, credentials or wildcard are refused, and plain
 * http only for the developer's own machine (localhost). The result is safe inside a CSP header.
 */
export function normalizeOrigin(text: string): string | null {
  const trimmed = text.trim();
  if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname)) return null;
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) return null;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return url.origin;
}

/**
 * The script of the snippet. It finds our origin from its own address, inserts the form's iframe
 * after itself, and sets the iframe's height from the messages the framed pages post (the public
 * and auth layouts: apps/web/src/features/registration/embed-resize.tsx), only from our origin and
 * that iframe.
 */
export const EMBED_SCRIPT = `(function () {
  var script = document.currentScript;
  if (!script || !script.parentNode) return;
  var ours = new URL(script.src, document.baseURI).origin;
  var form = script.getAttribute('data-form') || '';
  var authhash = script.getAttribute('data-authhash') || '';
  var frame = document.createElement('iframe');
  frame.src = ours + '/registration/?f=' + encodeURIComponent(form) + '&authhash=' + encodeURIComponent(authhash) + '&embed=1';
  frame.title = script.getAttribute('data-title') || 'Registration form';
  frame.setAttribute('data-tumble-registration', form);
  frame.style.cssText = 'display:block;width:100%;height:600px;border:0;overflow:hidden';
  script.parentNode.insertBefore(frame, script.nextSibling);
  window.addEventListener('message', function (event) {
    if (event.origin !== ours || event.source !== frame.contentWindow) return;
    var data = event.data;
    if (!data || data.type !== ${JSON.stringify(EMBED_RESIZE_MESSAGE)} || typeof data.height !== 'number') return;
    frame.style.height = Math.max(150, Math.min(20000, Math.ceil(data.height))) + 'px';
  });
})();
`;

/** `frame-ancestors 'self' <origins>` in a CSP header, whatever the directive said before. */
export function withFrameAncestors(csp: string, origins: readonly string[]): string {
  const directive = ["frame-ancestors 'self'", ...origins].join(' ');
  return /frame-ancestors[^;]*/.test(csp)
    ? csp.replace(/frame-ancestors[^;]*/, directive)
    : `${csp};${directive}`;
}
