/**
 * A page shown inside a provider's website (the registration form's embed, /embed/registration.js,
 * and the parent sign-in pages it leads to): the SPA runs in an iframe on another origin.
 */

/**
 * Whether this page runs in a frame (its parent window is another one). The embed script's
 * `embed=1` is not asked: the same address opened on its own is a full page like any other.
 */
export function isFramed(): boolean {
  return typeof window !== 'undefined' && window.parent !== window;
}

/** Where a payment page opened from a frame went: the whole window, a new tab, or nowhere. */
export type FrameExit = 'top' | 'new-tab' | 'blocked';

/**
 * Opens a provider's payment page (the test card page, a Square payment link) from a framed page.
 * Those pages refuse to be framed, so it leaves the frame: the browser lets a frame on another
 * origin navigate the top window only after the person clicked in it (Chromium throws a
 * SecurityError otherwise), else a new tab opened on the same click; a popup blocker may refuse
 * that too. The payment's return address is a full page of ours (the confirmation), not the frame.
 */
export function leaveFrameFor(url: string, frame: Window = window): FrameExit {
  try {
    frame.top!.location.href = url;
    return 'top';
  } catch {
    // Not allowed to navigate the embedding page: a new tab instead.
  }
  const opened = frame.open(url, '_blank');
  if (!opened) return 'blocked';
  // The payment page has no business with the frame that opened it.
  opened.opener = null;
  return 'new-tab';
}
