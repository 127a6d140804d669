import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { EMBED_RESIZE_MESSAGE } from '@tumble/contracts/registration-forms';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthLayout } from '../../app/layouts/auth-layout';
import { PublicLayout } from '../../app/layouts/public-layout';
import { createQueryClient } from '../../app/query-client';
import { json, stubServer } from '../../test/render';
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

  it('posts the content’s height to the embedding page when framed, again whenever it changes', () => {
    window.history.replaceState(null, '', '/registration/?f=term&authhash=x&embed=1');
    render(<Page />);
    expect(posted).toHaveBeenCalledWith({ type: EMBED_RESIZE_MESSAGE, height: 700 }, '*');
    bottom = 1500;
    resized?.();
    expect(posted).toHaveBeenLastCalledWith({ type: EMBED_RESIZE_MESSAGE, height: 1500 }, '*');
    // The same height is not posted twice.
    resized?.();
    expect(posted).toHaveBeenCalledTimes(2);
  });

  it('says nothing outside a frame, even with embed=1 in the address', () => {
    Object.defineProperty(window, 'parent', { value: window, configurable: true });
    window.history.replaceState(null, '', '/registration/?f=term&authhash=x&embed=1');
    render(<Page />);
    expect(posted).not.toHaveBeenCalled();
  });

  it.each([
    [
      'the auth layout: the parent sign-in the form leads to (no embed=1)',
      AuthLayout,
      '/admin/students/login?authhash=x',
    ],
    ['the public layout: the registration page', PublicLayout, '/registration/?f=term&authhash=x&embed=1'],
  ])('%s reports its height when framed', async (_, Layout, path) => {
    bottom = 640;
    const router = createMemoryRouter(
      [{ path: '/', Component: Layout, children: [{ path: '*', element: <p>Parent Sign In</p> }] }],
      { initialEntries: [path] },
    );
    // The public layout asks whether the company is closed (GET /rest/acl with the authhash).
    stubServer({ 'GET /rest/acl': () => json({ meta: {}, navigation: [] }) });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MantineProvider>
          <RouterProvider router={router} />
        </MantineProvider>
      </QueryClientProvider>,
    );
    await screen.findByText('Parent Sign In');
    expect(posted).toHaveBeenCalledExactlyOnceWith({ type: EMBED_RESIZE_MESSAGE, height: 640 }, '*');
    // The page shrinks (e.g. back from a longer page): so does the frame.
    bottom = 420;
    resized?.();
    expect(posted).toHaveBeenLastCalledWith({ type: EMBED_RESIZE_MESSAGE, height: 420 }, '*');
  });
});
