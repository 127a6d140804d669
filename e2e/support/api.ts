import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl } from './browser.ts';

/** Where the SPA keeps the session token (apps/web/src/api/client.ts, SPEC.md point 9). */
export const TOKEN_STORAGE_KEY = 'tumble.token';

/** An address no other test, viewport or run uses, so tests never share accounts. */
export function uniqueEmail(prefix: string, viewport: string): string {
  return `${prefix}-${viewport}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@e2e.test`;
}

/** A fresh passphrase long enough for staff accounts (12+ characters). */
export function uniquePassword(label: string): string {
  return `${label} passphrase ${randomBytes(4).toString('hex')}`;
}

async function call(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    Authorization: options.token ? `Bearer ${options.token}` : 'Public',
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** POST /rest: signs in through the API and returns the token. */
export async function apiSignIn(email: string, password: string, authhash?: string): Promise<string> {
  const { status, body } = await call('POST', '/rest', { body: { username: email, password, authhash } });
  expect(status, `POST /rest as ${email}`).toBe(200);
  const token = (body as { token?: unknown }).token;
  expect(typeof token).toBe('string');
  return token as string;
}

/** POST /rest/logout: revokes the session server-side; answers the status. */
export async function apiLogout(token: string): Promise<number> {
  return (await call('POST', '/rest/logout', { token })).status;
}

/** GET /rest/acl with the token; answers the status (200 while the session lives, 403 after). */
export async function apiAclStatus(token: string): Promise<number> {
  return (await call('GET', '/rest/acl', { token })).status;
}

/** POST /api/v1/admin/users as a company administrator: invites a staff member by mail. */
export async function apiInviteStaff(
  adminToken: string,
  user: { full_name: string; email: string; role: 'companystaff' | 'companycoach' | 'companyadmin' },
): Promise<void> {
  const { status, body } = await call('POST', '/api/v1/admin/users', { token: adminToken, body: user });
  expect(status, `invite ${user.email}: ${JSON.stringify(body)}`).toBe(200);
  expect(body).toMatchObject({ valid: true });
}

/** The token the SPA stored in this page's localStorage, or null. */
export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => window.localStorage.getItem(key), TOKEN_STORAGE_KEY);
}

/** The one link of a mail that points at `path` on the app, e.g. '/admin/reset-password'. */
export function linkTo(links: string[], path: string): string {
  const matching = [...new Set(links.filter((link) => new URL(link).pathname === path))];
  expect(matching, `links to ${path} in the mail`).toHaveLength(1);
  const link = matching[0] as string;
  expect(link.startsWith(baseUrl()), `${link} points at the app under test`).toBe(true);
  return link;
}
