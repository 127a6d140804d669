import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { api } from '../../api/client';
import { json, type stubServer } from '../../test/render';

/** What the checkouts' tests share: the parent's children, call lookups, and the common checks. */

/** GET /api/v1/students/children of the signed-in test parent. */
export const parentChildren = () =>
  json([
    { id: 7, first_name: 'Ava', last_name: 'Parent', dob: '2018-03-04', consent: 1 },
    { id: 8, first_name: 'Ben', last_name: 'Parent', dob: '2016-05-06', consent: 0 },
  ]);

/** The calls made to `path` (query ignored), oldest first. */
export function callsTo(fetchMock: ReturnType<typeof stubServer>, path: string) {
  return fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://x').pathname === path);
}

/** A checkout rendered signed out goes to the company's parent sign-in and comes back to `path`. */
export async function expectSignInFirst(
  renderPage: () => { router: { state: { location: { pathname: string; search: string } } } },
  path: string,
) {
  api.clearSession();
  const { router } = renderPage();
  await waitFor(() => expect(router.state.location.pathname).toBe('/admin/students/login'));
  expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
    authhash: 'H1',
    redirect: path,
  });
}

/** Confirm Payment stays disabled until the price that is being calculated arrives. */
export async function expectConfirmWaitsForPrice(
  pending: { resolve: (value: Response) => void },
  price: Response,
) {
  const button = await screen.findByRole('button', { name: 'Confirm Payment' });
  expect(button.hasAttribute('disabled')).toBe(true);
  pending.resolve(price);
  await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
}
