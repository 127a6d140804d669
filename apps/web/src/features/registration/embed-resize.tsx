import { EMBED_RESIZE_MESSAGE } from '@tumble/contracts/wire';
import { type ReactNode, useCallback, useEffect, useRef } from 'react';
import { isFramed } from '../../components/embedded-page';

/**
 * For a page shown in a provider's website by /embed/registration.js (the registration pages and
 * the parent sign-in pages the form leads to): when framed, posts the content's height to the
 * embedding page whenever it changes, so the script sizes the iframe to it. The public and auth
 * layouts put it around every page (EmbedHeight), so each page that can be framed reports.
 *
 * The height is measured from the element (not the document, which is at least as tall as the
 * iframe already is and would never let it shrink), including the layout's padding. It is posted to any origin: the embedding
 * site is whichever the company allowed (CSP frame-ancestors), and a height is no secret; the
 * script on that side accepts it only from our origin and its own iframe.
 */
export function useEmbedResize(): (node: HTMLElement | null) => void {
  const observer = useRef<ResizeObserver | null>(null);
  useEffect(() => () => observer.current?.disconnect(), []);
  return useCallback((node: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!node || !isFramed() || typeof ResizeObserver === 'undefined') return;
    let last = 0;
    const post = () => {
      const height = Math.ceil(node.getBoundingClientRect().bottom + window.scrollY);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: EMBED_RESIZE_MESSAGE, height }, '*');
    };
    observer.current = new ResizeObserver(post);
    observer.current.observe(node);
    post();
  }, []);
}

/** The layouts' wrapper: a plain block whose height the embedding page hears when framed. */
export function EmbedHeight({ children }: { children: ReactNode }) {
  return <div ref={useEmbedResize()}>{children}</div>;
}
