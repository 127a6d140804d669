import type { Mock } from 'vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bookingPageData, E } from '../features/booking/booking-test-kit';
import { registrationFormData } from '../features/registration/registration-test-kit';

/**
 * The first HTML of a public page carries its top (apps/server/src/features/public-pages) and the
 * API answer it was drawn from as #bootstrap JSON. React must keep that top on screen from its first
 * render to the page's own (no loader in between, no flash) and not ask the API again.
 */

/**
 * Puts the server's first HTML in the document, then loads the app's modules afresh: the shell
 * reads the document when its module loads, as in the browser before React renders.
 */
async function loadAppOn(html: string) {
  document.body.innerHTML = html;
  vi.resetModules();
  const [testingLibrary, router, { AppProviders }, { routes }, kit] = await Promise.all([
    import('@testing-library/react'),
    import('react-router'),
    import('../app/providers'),
    import('../app/routes'),
    import('../test/render'),
  ]);
  const { act, render, screen } = testingLibrary;
  const root = document.getElementById('root')!;

  /** Renders the app at `url` into #root, over the server's markup, as the browser does. */
  async function renderAt(url: string) {
    const memoryRouter = router.createMemoryRouter(routes, { initialEntries: [url] });
    await act(async () => {
      render(
        <AppProviders env="test">
          <router.RouterProvider router={memoryRouter} />
        </AppProviders>,
        { container: root },
      );
    });
  }

  /** Records `describeRoot()` after every change to #root, until `stop()`. */
  function watch(describeRoot: () => string) {
    const states: string[] = [];
    const observer = new MutationObserver(() => states.push(describeRoot()));
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    return { states, stop: () => observer.disconnect() };
  }

  return { act, screen, root, kit, renderAt, watch };
}

/** Whose h1 #root shows ("server: …" for the server's markup, "page: …" for the app's), if any. */
function headerOf(root: HTMLElement): string {
  const h1 = root.querySelector('h1');
  return h1 ? `${h1.className.includes('ssr-title') ? 'server' : 'page'}: ${h1.textContent}` : 'no header';
}

/** The paths the app fetched. */
const pathsFetched = (fetchMock: Mock) =>
  fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname);

describe('the server-rendered page top', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
  });

  it('stays on screen through every render until the page draws the same event, with no second fetch', async () => {
    const page = bookingPageData();
    const name = page.event.name;
    const html = `<div id="root"><div class="ssr" data-ssr><div class="ssr-c"><h1 class="ssr-title">${name}</h1></div></div></div><link rel="stylesheet" href="/assets/index.css"><script type="application/json" id="bootstrap">${JSON.stringify({ booking: { e: E, authhash: 'H1', page } })}</script>`;
    const { screen, root, kit, renderAt, watch } = await loadAppOn(html);
    // The stylesheet the server put after #root is back in <head>, before Mantine's own <style>s.
    const stylesheet = document.querySelector('link[rel="stylesheet"]');
    expect(stylesheet?.parentElement).toBe(document.head);
    expect(stylesheet?.getAttribute('blocking')).toBe('render');
    const fetchMock = kit.stubServer({ 'GET /rest/acl': () => kit.json({}, { status: 404 }) });
    const { states, stop } = watch(() => headerOf(root));

    await renderAt(`/booking?e=${E}&authhash=H1`);
    await screen.findByRole('button', { name: 'Book Now' });
    await vi.waitFor(() => expect(root.querySelector('[data-ssr]')).toBeNull());
    stop();

    expect(root.querySelector('h1')?.textContent).toBe(name);
    expect(states.length).toBeGreaterThan(0);
    expect(states.filter((state) => state !== `server: ${name}` && state !== `page: ${name}`)).toEqual([]);
    expect(states.at(-1)).toBe(`page: ${name}`);
    expect(pathsFetched(fetchMock)).not.toContain('/api/v1/booking');
  });

  it('keeps the party page header (the company, then the title) on screen while /rest/acl is pending', async () => {
    const title = 'Book a birthday party';
    const html = `<div id="root"><div class="ssr" data-ssr><div class="ssr-c"><p class="ssr-brand-name">Bounce Gym</p><h1 class="ssr-title">${title}</h1></div></div></div><script type="application/json" id="bootstrap">${JSON.stringify({ company: { authhash: 'H1', name: 'Bounce Gym', logo: null } })}</script>`;
    const { screen, root, kit, renderAt, watch } = await loadAppOn(html);
    // /rest/acl never answers in this test: the page must not wait for it to show the company.
    kit.stubServer({
      'GET /rest/acl': () => new Promise<Response>(() => {}),
      'GET /api/v1/birthday-party/booking/load-calendar': () => kit.json([]),
    });
    const { states, stop } = watch(() => {
      const text = root.textContent ?? '';
      return text.includes('Bounce Gym') && text.includes(title) ? 'header' : `missing: ${text.slice(0, 60)}`;
    });

    await renderAt('/birthday-party/booking/?authhash=H1');
    await vi.waitFor(() => expect(root.querySelector('[data-ssr]')).toBeNull());
    await screen.findByRole('heading', { name: title });
    stop();
    expect(screen.getByText('Bounce Gym')).toBeTruthy();
    expect(states.filter((state) => state !== 'header')).toEqual([]);
  });

  it('keeps the registration page top on screen while the waiting room is checked, and does not fetch the form again', async () => {
    const page = registrationFormData();
    const html = `<div id="root"><div class="ssr" data-ssr><div class="ssr-c"><p class="ssr-brand-name">Bounce Gymnastics</p><h1 class="ssr-title ssr-mb">Term classes</h1></div></div></div><script type="application/json" id="bootstrap">${JSON.stringify({ registration: { f: 'term-classes', authhash: 'H1', page } })}</script>`;
    const { act, screen, root, kit, renderAt, watch } = await loadAppOn(html);
    // The waiting room's check answers only when the test says so.
    let answerQueue: (response: Response) => void = () => {};
    const fetchMock = kit.stubServer({
      'GET /rest/acl': () => kit.json({}, { status: 404 }),
      'GET /api/v1/registration/queue': () =>
        new Promise<Response>((resolve) => {
          answerQueue = resolve;
        }),
    });
    const { states, stop } = watch(() => headerOf(root));

    await renderAt('/registration/?f=term-classes&authhash=H1');
    await vi.waitFor(() => expect(pathsFetched(fetchMock)).toContain('/api/v1/registration/queue'));
    // Checking: the server's markup, not a loader, inside the public layout without its own padding
    // (data-nested), so it stays where it was drawn.
    expect(root.querySelector('[data-ssr] h1')?.textContent).toBe('Term classes');
    expect(root.querySelector('[data-ssr]')?.hasAttribute('data-nested')).toBe(true);
    await act(async () => {
      answerQueue(
        kit.json({
          queued: false,
          opens_at: null,
          waiting_room_opens_at: null,
          time_zone: 'Australia/Sydney',
          company: { name: 'Bounce Gymnastics', logo: null },
          now: new Date().toISOString(),
        }),
      );
    });
    await screen.findByRole('heading', { name: 'Find a class' });
    await vi.waitFor(() => expect(root.querySelector('[data-ssr]')).toBeNull());
    stop();
    expect(
      states.filter((state) => state !== 'server: Term classes' && state !== 'page: Term classes'),
    ).toEqual([]);
    expect(states.at(-1)).toBe('page: Term classes');
    expect(pathsFetched(fetchMock)).not.toContain('/api/v1/registration/form');
  });
});
