import { render } from '@testing-library/react';
import { EMBED_RESIZE_MESSAGE } from '@tumble/contracts/registration-forms';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useEmbedResize } from './embed-resize';

/** A page body whose bottom edge the test moves, as content grows or shrinks. */
let bottom = 700;
let resized: (() => void) | null = null;

class FakeResizeObserver {
  constructor(callback: () => void) {
    resized = callback;
  }
  observe() {}
  disconnect() {
    resized = null;
  }
}

function Page() {
  const ref = useEmbedResize();
  return <div ref={ref}>form</div>;
}

describe('useEmbedResize', () => {
  const posted = vi.fn();
  const realParent = window.parent;

  beforeEach(() => {
    posted.mockReset();
    bottom = 700;
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(
      () => ({ bottom }) as DOMRect,
    );
    Object.defineProperty(window, 'parent', { value: { postMessage: posted }, configurable: true });
  });
  afterEach(() => {
    Object.defineProperty(window, 'parent', { value: realParent, configurable: true });
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    window.history.replaceState(null, '', '/');
  });

  it('posts the content’s height to the embedding page, again whenever it changes', () => {
    window.history.replaceState(null, '', '/registration/?f=term&authhash=x&embed=1');
    render(<Page />);
    expect(posted).toHaveBeenCalledWith({ type: EMBED_RESIZE_MESSAGE, height: 732 }, '*');
    bottom = 1500;
    resized?.();
    expect(posted).toHaveBeenLastCalledWith({ type: EMBED_RESIZE_MESSAGE, height: 1532 }, '*');
    // The same height is not posted twice.
    resized?.();
    expect(posted).toHaveBeenCalledTimes(2);
  });

  it('says nothing outside an embed (no embed=1 in the address)', () => {
    window.history.replaceState(null, '', '/registration/?f=term&authhash=x');
    render(<Page />);
    expect(posted).not.toHaveBeenCalled();
  });
});
