import { mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';
import type { E2eServer } from '../global-setup.ts';

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof viewports;

const artifacts = path.resolve(import.meta.dirname, '../artifacts');
mkdirSync(artifacts, { recursive: true });

/** Debian's Chromium, headless, with the flags this sandbox needs (no network beyond loopback). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/**
 * The app of this worker (e2e/global-setup.ts starts one per worker): its address, mail folder,
 * database and log. Vitest numbers its workers from 1 (VITEST_POOL_ID).
 */
export function worker(): E2eServer {
  const servers = inject('servers');
  const id = Number(process.env.VITEST_POOL_ID ?? '1');
  const server = servers[(id - 1) % servers.length];
  if (!server) throw new Error('no app was started for the end-to-end tests (e2e/global-setup.ts)');
  return server;
}

export function baseUrl(): string {
  return worker().baseUrl;
}

/** A fresh context (own storage) at a viewport, with the app's base URL. */
export async function newPage(
  browser: Browser,
  viewport: ViewportName = 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: viewports[viewport],
    baseURL: baseUrl(),
    // The family and the front desk are in Sydney, like the specs' companies.
    timezoneId: 'Australia/Sydney',
  });
  const page = await context.newPage();
  return { context, page };
}

/** Saves a screenshot (the full page unless told otherwise) under e2e/artifacts/ (ignored by git). */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: options.fullPage ?? true });
}

export interface ReceivedMail {
  to: string;
  subject: string;
  body: string;
  links: string[];
}

/** Undoes quoted-printable soft line breaks and escapes so links read whole. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Waits for a mail to `to` that the app sent through SMTP to the test mail server. */
export async function waitForMail(
  to: string,
  subjectIncludes: string,
  timeoutMs = 20_000,
): Promise<ReceivedMail> {
  const mailDir = worker().mailDir;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const file of (await readdir(mailDir)).sort().reverse()) {
      const raw = decodeQuotedPrintable(await readFile(path.join(mailDir, file), 'utf8'));
      const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
      const recipient = /^To: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
      if (recipient.includes(to) && subject.includes(subjectIncludes)) {
        // Links in the HTML part carry &amp; for &: read them as the browser would.
        const links = [...raw.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0].replaceAll('&amp;', '&'));
        return { to: recipient, subject, body: raw, links };
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail to ${to} with subject containing "${subjectIncludes}" within ${timeoutMs} ms`);
}
