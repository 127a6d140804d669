import { screen, waitFor } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { leaveForUrl } from '../../components/browser-navigation';
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

/**
 * The tests every checkout page shares: a signed-in parent (token 'tok'), a fresh payment-link
 * mock (the test file mocks components/browser-navigation), and the signed-out redirect. `prepare`
 * stores the selection and stubs the server.
 */
export function checkoutBasics(options: {
  path: string;
  prepare: () => void;
  renderPage: () => { router: { state: { location: { pathname: string; search: string } } } };
  /** The company name the header shows and the terms the page loads. */
  company: string;
  terms: string;
}) {
  beforeEach(() => api.setToken('tok'));
  afterEach(() => vi.mocked(leaveForUrl).mockReset());

  it('sends a signed-out visitor to parent sign-in with a redirect back', async () => {
    options.prepare();
    await expectSignInFirst(options.renderPage, options.path);
  });

  it("shows the company, the way to the parent's account and the terms", async () => {
    options.prepare();
    options.renderPage();
    expect(await screen.findByText(options.company)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to my account' })).toBeTruthy();
    expect(await screen.findByText(options.terms)).toBeTruthy();
  });
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

/**
 * SPEC.md point 5 on a checkout whose pricing stub refuses coupon 'BAD' with 'Coupon is invalid.':
 * a typed code disables the other field, each applied code prices again with only that code.
 */
export async function expectCodesExclusive(
  user: ReturnType<typeof userEvent.setup>,
  lastChargeUrl: () => URL | undefined,
) {
  const coupon = screen.getByLabelText('Coupon code');
  const voucher = screen.getByLabelText('NSW voucher');
  await user.type(coupon, 'BAD');
  expect(voucher.hasAttribute('disabled')).toBe(true);
  expect(screen.getByRole('button', { name: 'Apply voucher' }).hasAttribute('disabled')).toBe(true);
  await user.click(screen.getByRole('button', { name: 'Apply coupon' }));

  expect(await screen.findByText('Coupon is invalid.')).toBeTruthy();
  expect(lastChargeUrl()?.searchParams.get('coupon_code')).toBe('BAD');
  expect(lastChargeUrl()?.searchParams.has('nsw_coupon_code')).toBe(false);

  await user.clear(coupon);
  expect(voucher.hasAttribute('disabled')).toBe(false);
  await user.type(voucher, '12345678');
  expect(coupon.hasAttribute('disabled')).toBe(true);
  await user.click(screen.getByRole('button', { name: 'Apply voucher' }));
  await waitFor(() => {
    expect(lastChargeUrl()?.searchParams.get('nsw_coupon_code')).toBe('12345678');
    expect(lastChargeUrl()?.searchParams.has('coupon_code')).toBe(false);
  });
}
