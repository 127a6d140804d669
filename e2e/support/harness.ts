import { existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { launchBrowser, newPage, screenshot, type ViewportName, worker } from './browser.ts';

/**
 * A journey whose layout differs by width (checkout, registration, the roll, the parent account)
 * runs at both: desktop 1280×800 and phone 390×844.
 */
export const bothViewports: ViewportName[] = ['desktop', 'phone'];
/** A staff journey whose layout does not change with width runs once, at the front desk's width. */
export const staffViewport: ViewportName[] = ['desktop'];
/** A parent's journey whose layout does not change with width runs once, on a phone. */
export const parentViewport: ViewportName[] = ['phone'];

/** How long a locator or a URL check waits before the test fails. */
export const UI_TIMEOUT = 15_000;

/** One Chromium per spec file, launched before its tests and closed after them. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not running (useBrowser registers a beforeAll hook)');
    return browser;
  };
}

export interface PageFixture {
  page: Page;
  context: BrowserContext;
  viewport: ViewportName;
  /** Saves e2e/artifacts/<spec>-<step>-<viewport>.png, once transitions have settled. */
  shot(step: string, options?: { fullPage?: boolean }): Promise<void>;
  /**
   * The messages of the alerts/confirms the page opened since the last call (each was accepted).
   * A test that ends with dialogs it did not take fails: nothing may pop up unannounced.
   */
  takeDialogs(): string[];
}

/**
 * A fresh browser context (own storage) per test at `viewport`. Dialogs are recorded and accepted;
 * an uncaught error in the page or an unexpected dialog fails the test; a failing test leaves a
 * screenshot `<spec>-failed-<viewport>-<n>.png`.
 */
export function usePage(spec: string, viewport: ViewportName, getBrowser: () => Browser): () => PageFixture {
  let fixture: PageFixture | undefined;
  let pageErrors: string[] = [];
  let consoleLines: string[] = [];
  let dialogs: string[] = [];
  let failures = 0;
  let serverLogFrom = 0;

  beforeEach(async () => {
    const { context, page } = await newPage(getBrowser(), viewport);
    context.setDefaultTimeout(UI_TIMEOUT);
    context.setDefaultNavigationTimeout(30_000);
    pageErrors = [];
    consoleLines = [];
    dialogs = [];
    serverLogFrom = logSize();
    page.on('pageerror', (error) => pageErrors.push(`${error.name}: ${error.message}`));
    page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept().catch(() => {});
    });
    fixture = {
      page,
      context,
      viewport,
      shot: async (step, options) => {
        await settle(page);
        await screenshot(page, `${spec}-${step}-${viewport}`, options);
      },
      takeDialogs: () => {
        const taken = dialogs;
        dialogs = [];
        return taken;
      },
    };
  });

  afterEach(async ({ task }) => {
    const current = fixture;
    fixture = undefined;
    if (current && task.result?.state === 'fail') {
      failures += 1;
      await screenshot(current.page, `${spec}-failed-${viewport}-${failures}`).catch(() => {});
    }
    await current?.context.close();
    if (task.result?.state === 'fail') {
      // The test already failed; say what else happened without burying its own error.
      if (pageErrors.length > 0)
        console.warn(`[${spec} ${viewport}] uncaught errors in the page:`, pageErrors);
      if (dialogs.length > 0) console.warn(`[${spec} ${viewport}] dialogs not taken by the test:`, dialogs);
      if (consoleLines.length > 0) console.warn(`[${spec} ${viewport}] the page's console:`, consoleLines);
      const serverLines = await logSince(serverLogFrom);
      if (serverLines) console.warn(`[${spec} ${viewport}] the app's log during the test:\n${serverLines}`);
      return;
    }
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
    expect(dialogs, 'dialogs the test did not expect').toEqual([]);
  });

  return () => {
    if (!fixture) throw new Error('no page: usePage registers a beforeEach hook');
    return fixture;
  };
}

function logSize(): number {
  const file = worker().logFile;
  return existsSync(file) ? statSync(file).size : 0;
}

/** What the worker's app wrote to its log from byte `from` on (the app is shared by the worker's specs one at a time). */
async function logSince(from: number): Promise<string> {
  const file = worker().logFile;
  if (!existsSync(file)) return '';
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.max(0, size - from));
    await handle.read(buffer, 0, buffer.length, from);
    return buffer.toString('utf8').trim();
  } finally {
    await handle.close();
  }
}

/**
 * Waits (at most 2 s) for the page's finite CSS transitions and animations to end, so a screenshot
 * shows a modal or a notification where it comes to rest rather than half faded in.
 */
async function settle(page: Page): Promise<void> {
  await page
    .evaluate(() => {
      const running = document
        .getAnimations()
        .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity));
      const done = Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
      return Promise.race([done, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    })
    .catch(() => {});
}

/** The page's path (and query, when `withSearch`), for polling with `expect.poll`. */
export function location(page: Page, withSearch = false): string {
  const url = new URL(page.url());
  return withSearch ? url.pathname + url.search : url.pathname;
}

/** Waits until the page is at `expected` (a path, or path + query when it contains '?'). */
export async function expectAt(page: Page, expected: string): Promise<void> {
  await expect
    .poll(() => location(page, expected.includes('?')), { timeout: UI_TIMEOUT, interval: 100 })
    .toBe(expected);
}
