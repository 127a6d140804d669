import { EMBED_RESIZE_MESSAGE } from '@tumble/contracts/registration-forms';
import { useCallback, useEffect, useRef } from 'react';

/** Space kept below the content (the public layout's bottom padding) so nothing is cut off. */
const BOTTOM_SPACE = 32;

/** Whether this page runs inside a provider's website (the embed script adds `embed=1`). */
export function isEmbedded(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.parent !== window &&
    new URLSearchParams(window.location.search).get('embed') === '1'
  );
}

/**
 * For the registration page shown in a provider's website by /embed/registration.js: posts the
 * content's height to the embedding page whenever it changes, so the script sizes the iframe to it.
 * Put the returned ref on the page's outermost element:
 *
 * ```tsx
 * const embedRef = useEmbedResize();
 * return <Stack ref={embedRef}>…</Stack>;
 * ```
 *
 * The height is measured from the element (not the document, which is at least as tall as the
 * iframe already is and would never let it shrink). It is posted to any origin: the embedding
 * site is whichever the company allowed (CSP frame-ancestors), and a height is no secret; the
 * script on that side accepts it only from our origin and its own iframe.
 */
export function useEmbedResize(): (node: HTMLElement | null) => void {
  const observer = useRef<ResizeObserver | null>(null);
  useEffect(() => () => observer.current?.disconnect(), []);
  return useCallback((node: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!node || !isEmbedded() || typeof ResizeObserver === 'undefined') return;
    let last = 0;
    const post = () => {
      const height = Math.ceil(node.getBoundingClientRect().bottom + window.scrollY + BOTTOM_SPACE);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: EMBED_RESIZE_MESSAGE, height }, '*');
    };
    observer.current = new ResizeObserver(post);
    observer.current.observe(node);
    post();
  }, []);
}
