import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { api } from '../api/client';
import { mediaQueries } from './media-query';

// jsdom has no layout engine; Mantine asks for media queries and observes element sizes.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  // Every query answers false: a desktop that is not a phone (tests of phone layouts say otherwise).
  value: mediaQueries(() => false),
});

class ResizeObserverStub implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => {};
// Mantine's autosizing Textarea listens for web fonts loading; jsdom has no FontFaceSet.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}
window.scrollTo = (() => {}) as typeof window.scrollTo;

afterEach(() => {
  cleanup();
  api.clearSession();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
