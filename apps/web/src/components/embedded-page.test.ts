import { afterEach, describe, expect, it, vi } from 'vitest';
import { isFramed, leaveFrameFor } from './embedded-page';

const URL_ = 'http://localhost/payments/test?session=ts_1';

/** A framed window: its top window's location and its window.open as the browser would answer. */
function frame({ topAllowed, popup }: { topAllowed: boolean; popup: boolean }) {
  const top = { href: '' };
  const location = {
    set href(url: string) {
      // Chromium: a cross-origin frame without the person's click may not navigate the top window.
      if (!topAllowed) throw new DOMException('not allowed', 'SecurityError');
      top.href = url;
    },
  };
  const opened = { opener: {} as unknown };
  const open = vi.fn(() => (popup ? opened : null));
  return { window: { top: { location }, open } as unknown as Window, top, open, opened };
}

describe('isFramed', () => {
  const realParent = window.parent;
  afterEach(() => Object.defineProperty(window, 'parent', { value: realParent, configurable: true }));

  it('is false for a page of its own window and true inside a frame', () => {
    expect(isFramed()).toBe(false);
    Object.defineProperty(window, 'parent', { value: {}, configurable: true });
    expect(isFramed()).toBe(true);
  });
});

describe('leaveFrameFor (a payment page opened from inside a provider’s website)', () => {
  it('takes the whole window when the browser allows it (the person clicked in the frame)', () => {
    const f = frame({ topAllowed: true, popup: true });
    expect(leaveFrameFor(URL_, f.window)).toBe('top');
    expect(f.top.href).toBe(URL_);
    expect(f.open).not.toHaveBeenCalled();
  });

  it('opens a new tab, cut off from the frame, when the top window refuses', () => {
    const f = frame({ topAllowed: false, popup: true });
    expect(leaveFrameFor(URL_, f.window)).toBe('new-tab');
    expect(f.open).toHaveBeenCalledExactlyOnceWith(URL_, '_blank');
    expect(f.opened.opener).toBeNull();
    expect(f.top.href).toBe('');
  });

  it('says so when a popup blocker refuses the new tab too', () => {
    const f = frame({ topAllowed: false, popup: false });
    expect(leaveFrameFor(URL_, f.window)).toBe('blocked');
  });
});
