import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { a11yViolations, describeViolations, smallTouchTargets } from './a11y.ts';
import { newPage, viewports } from './browser.ts';
import { UI_TIMEOUT } from './harness.ts';

/**
 * The accessibility sweeps of the signed-in pages (e2e/a11y-parent.spec.ts and
 * e2e/a11y-staff-pages.spec.ts): one signed-in page visits every page of a group, checks it as it
 * loads at 1280 px and again at 390 px on the same loaded page (and, for a form, once more with
 * its validation errors shown), and never writes anything.
 */

export interface SweptPage {
  /** The address, or a function that finds it on the page already open (an id from a list). */
  path: string | ((page: Page) => Promise<string>);
  /** The test's name for a page whose address is found at run time (its path, with the id named). */
  label?: string;
  /**
   * Text of the page's h1, to know the page (not a loader or an error) is what is checked; a
   * function when it is the spec's company's (known once the company is seeded).
   */
  heading: string | RegExp | (() => string);
  /** Brings the page into a second state worth checking (a form's validation errors), one click away. */
  alsoWith?: { label: string; act: (page: Page) => Promise<void> };
}

/** Waits for the page's own content: its heading, and no loader or skeleton left in the main area. */
export async function contentReady(page: Page, heading: SweptPage['heading']): Promise<void> {
  const name = typeof heading === 'function' ? heading() : heading;
  await page.getByRole('heading', { level: 1, name }).first().waitFor({ timeout: UI_TIMEOUT });
  await page
    .locator('main .mantine-Loader-root, main .mantine-Skeleton-root, main [aria-busy="true"]')
    .first()
    .waitFor({ state: 'detached', timeout: UI_TIMEOUT });
}

/**
 * Waits for the layout to follow a new width: a frame, then every finite transition (the shell's
 * sidebar slides out below 769 px and back above; checked mid-slide it overlaps the page).
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const finite = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** axe-core's serious/critical violations and the 24 px probe at 1280 then 390 px; answers the failures. */
export async function checkBothWidths(page: Page, label: string): Promise<string[]> {
  const failures: string[] = [];
  for (const size of [viewports.desktop, viewports.phone]) {
    await page.setViewportSize(size);
    await settled(page);
    const where = `${label} @${size.width}`;
    const violations = await a11yViolations(page);
    if (violations.length > 0) failures.push(describeViolations(where, violations));
    const small = await smallTouchTargets(page);
    if (small.length > 0) failures.push(`${where}: targets under 24×24: ${[...new Set(small)].join('; ')}`);
  }
  await page.setViewportSize(viewports.desktop);
  await settled(page);
  return failures;
}

/**
 * Aborts every request that could change data (anything but GET and HEAD, and the POSTs named in
 * `readingPosts`, which only read) from now on, and lists it as a failure: a sweep only reads,
 * so every page it checks shows the company as the seed made it.
 */
export async function refuseWrites(
  page: Page,
  failures: string[],
  readingPosts: string[] = [],
): Promise<void> {
  await page.route('**/*', async (route) => {
    const method = route.request().method();
    const path = new URL(route.request().url()).pathname;
    if (method === 'GET' || method === 'HEAD' || (method === 'POST' && readingPosts.includes(path)))
      return route.fallback();
    failures.push(`a write the sweep must not make: ${method} ${path}`);
    return route.abort();
  });
}

/**
 * Goes to `path` inside the loaded app, as a link would (the router follows history), so each page
 * costs its own requests only, not the app's start; the first visit loads the app.
 */
export async function navigate(page: Page, path: string): Promise<void> {
  if (!(await page.evaluate(() => document.querySelector('main') !== null))) {
    await page.goto(path);
    return;
  }
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path, { timeout: UI_TIMEOUT });
}

/** Opens one page, checks it at both widths (and its second state); answers every failure found. */
export async function sweepPage(page: Page, swept: SweptPage): Promise<string[]> {
  const path = typeof swept.path === 'string' ? swept.path : await swept.path(page);
  await page.setViewportSize(viewports.desktop);
  await navigate(page, path);
  await contentReady(page, swept.heading);
  const failures = await checkBothWidths(page, path);
  if (swept.alsoWith) {
    await swept.alsoWith.act(page);
    failures.push(...(await checkBothWidths(page, `${path} (${swept.alsoWith.label})`)));
  }
  return failures;
}

/** The href of the first link in the main area whose address starts with `prefix`. */
export async function firstLink(page: Page, prefix: string): Promise<string> {
  const link = page.locator(`main a[href^="${prefix}"]`).first();
  await link.waitFor({ timeout: UI_TIMEOUT });
  const href = await link.getAttribute('href');
  if (!href) throw new Error(`no link to ${prefix}… on ${page.url()}`);
  return href;
}

/**
 * The href of the first link in the main area to one row of a list: `prefix` then an id or a date
 * (not the list's own "New …" or "Invite" buttons, which show before the rows have loaded).
 */
export async function firstRowLink(page: Page, prefix: string): Promise<string> {
  const href = await page.waitForFunction(
    (start) =>
      Array.from(document.querySelectorAll('main a'))
        .map((a) => a.getAttribute('href') ?? '')
        .find((h) => h.startsWith(start) && /^\d/.test(h.slice(start.length))),
    prefix,
    { timeout: UI_TIMEOUT },
  );
  return (await href.jsonValue()) as string;
}

/** Signs in on a sign-in page (outside a test: no expect.poll) and waits to leave it. */
export async function signInOn(
  page: Page,
  loginPath: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(loginPath);
  await page.getByRole('textbox', { name: 'Email address', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'), { timeout: UI_TIMEOUT });
}

/** The second state of a form: submitted as it first shows, so its validation errors show (client-side, nothing sent). */
export const submittedEmpty: NonNullable<SweptPage['alsoWith']> = {
  label: 'submitted empty',
  act: async (page) => {
    await page.locator('main button[type="submit"]').first().click();
    await page.locator('main [aria-invalid="true"]').first().waitFor({ timeout: UI_TIMEOUT });
  },
};

/** Where and as whom a sweep signs in (a function: the spec's company is seeded before the tests). */
export interface SweepLogin {
  loginPath: string;
  email: string;
  password: string;
}

/**
 * The sweep of one group of signed-in pages, inside a describe: one page signed in at `loginPath`,
 * writes refused (but `readingPosts`), a test per page, then a test that nothing was written.
 */
export function sweepSignedIn(options: {
  name: string;
  browser: () => Browser;
  login: () => SweepLogin;
  pages: SweptPage[];
  readingPosts?: string[];
}): void {
  let context: BrowserContext;
  let page: Page;
  const writes: string[] = [];
  let started = 0;

  beforeAll(async () => {
    started = Date.now();
    ({ context, page } = await newPage(options.browser(), 'desktop'));
    context.setDefaultTimeout(UI_TIMEOUT);
    const { loginPath, email, password } = options.login();
    await signInOn(page, loginPath, email, password);
    await refuseWrites(page, writes, options.readingPosts);
  });

  afterAll(async () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.info(`${options.name}: ${options.pages.length} pages in ${seconds} s`);
    await context?.close();
  });

  const label = (swept: SweptPage) =>
    swept.label ??
    (typeof swept.path === 'string' ? swept.path : `found on a list, h1 ${String(swept.heading)}`);
  it.each(options.pages.map((swept) => [label(swept), swept] as const))(
    '%s: no serious or critical violation and no target under 24 px, at 1280 and 390',
    async (_label, swept) => {
      const failures = await sweepPage(page, swept);
      expect(failures.join('\n')).toBe('');
    },
  );

  it('changed nothing', () => {
    expect(writes).toEqual([]);
  });
}
