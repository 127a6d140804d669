import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { leaveForUrl } from '../../components/browser-navigation';
import { deferred } from '../../test/deferred';
import { studentAcl } from '../../test/fixtures';
import { json, stubServer } from '../../test/render';
import {
  callsTo,
  checkoutBasics,
  expectCodesExclusive,
  expectConfirmWaitsForPrice,
  parentChildren,
} from '../checkout/checkout-test-kit';
import { PARTY_CHECKOUT_STORAGE_KEY, type StoredPartyCheckout } from './party-checkout-storage';
import { onMonday2March, partyCharges, renderParty } from './party-test-kit';

vi.mock('../../components/browser-navigation', () => ({ leaveForUrl: vi.fn() }));

const CHECKOUT = '/birthday-party/booking/checkout/?authhash=H1';

function store(overrides: Partial<StoredPartyCheckout> = {}) {
  const charges = partyCharges(12);
  const data: StoredPartyCheckout = {
    slot_id: 3,
    time: '10:00',
    date: '2026-03-07',
    quantity: 12,
    pricing: {
      pricing_details: charges.pricing_details,
      additional_information: charges.additional_information,
    },
    ...overrides,
  };
  window.localStorage.setItem(PARTY_CHECKOUT_STORAGE_KEY, JSON.stringify(data));
}

type Handler = Parameters<typeof stubServer>[0][string];

function stubCheckout(handlers: Record<string, Handler> = {}) {
  return stubServer({
    'GET /rest/acl': () => json(studentAcl()),
    'GET /api/v1/students/children': parentChildren,
    'GET /api/v1/birthday-party/payment-terms': () =>
      json({ payment_terms: '<p>The deposit is non-refundable.</p>' }),
    'GET /api/v1/calculate-charges-summary': (url) =>
      json(
        url.searchParams.get('coupon_code') === 'BAD'
          ? partyCharges(12, { errors: { invalid_coupon_code_message: 'Coupon is invalid.' } })
          : url.searchParams.get('coupon_code') === 'PARTY10'
            ? partyCharges(12, { coupon: 4450, couponCode: 'PARTY10' })
            : partyCharges(12),
      ),
    ...handlers,
  });
}

const calls = callsTo;
const chargeUrls = (fetchMock: ReturnType<typeof stubServer>) =>
  calls(fetchMock, '/api/v1/calculate-charges-summary').map(([url]) => new URL(String(url), 'http://x'));

const confirmButton = () => screen.getByRole('button', { name: 'Confirm Payment' });
const childCard = () => within(screen.getByRole('region', { name: 'Birthday child' }));

async function ready() {
  const user = userEvent.setup();
  await screen.findByRole('heading', { name: 'Party checkout' });
  await waitFor(() => expect(confirmButton().hasAttribute('disabled')).toBe(false));
  return user;
}

async function acceptTerms(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('checkbox', { name: /accept the Terms and Conditions/ }));
}

async function chooseNewChild(user: ReturnType<typeof userEvent.setup>) {
  const select = childCard().getByRole('combobox', { name: 'Child' });
  await user.selectOptions(select, within(select).getByRole('option', { name: 'New child' }));
}

beforeEach(() => onMonday2March());
afterEach(() => vi.useRealTimers());

describe('PartyCheckoutPage', () => {
  checkoutBasics({
    path: CHECKOUT,
    prepare: () => {
      store();
      stubCheckout();
    },
    renderPage: () => renderParty(CHECKOUT),
    company: 'Bounce Gym',
    terms: 'The deposit is non-refundable.',
  });

  it('shows the stored party and price lines priced again on load', async () => {
    store();
    const fetchMock = stubCheckout();
    renderParty(CHECKOUT);
    await ready();

    const party = within(screen.getByTestId('party-summary'));
    expect(party.getByText('Saturday 07/03/2026')).toBeTruthy();
    expect(party.getByText('10:00am')).toBeTruthy();
    expect(party.getByText('12')).toBeTruthy();
    expect(screen.getByTestId('price-amount_due').textContent).toBe('$100.00');
    expect(within(screen.getByTestId('price-lines')).getByText('Balance')).toBeTruthy();
    expect(Object.fromEntries(chargeUrls(fetchMock)[0]?.searchParams ?? [])).toEqual({
      authhash: 'H1',
      type_of_registration: 'party',
      date: '2026-03-07',
      quantity: '12',
    });
    const select = childCard().getByRole('combobox', { name: 'Child' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Ava Parent', 'Ben Parent', 'New child']);
    expect(select.value).toBe('7');
  });

  it('disables Confirm Payment while the price is being calculated', async () => {
    store();
    const pending = deferred<Response>();
    stubCheckout({ 'GET /api/v1/calculate-charges-summary': () => pending.promise });
    renderParty(CHECKOUT);
    await expectConfirmWaitsForPrice(pending, json(partyCharges(12)));
  });

  it("asks for the child's information and the terms before posting, above the form", async () => {
    store();
    const fetchMock = stubCheckout();
    renderParty(CHECKOUT);
    const user = await ready();

    await chooseNewChild(user);
    await user.type(childCard().getByLabelText('First name'), 'Mia');
    const scrollTo = vi.spyOn(window, 'scrollTo');
    await user.click(confirmButton());

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(messages.partyChildRequired)).toBeTruthy();
    expect(within(alert).getByText(messages.acceptTerms)).toBeTruthy();
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));

    // A new child needs a real past date of birth as well as both names.
    await user.type(childCard().getByLabelText('Last name'), 'Lee');
    await user.type(childCard().getByLabelText('Date of birth'), '31/02/2019');
    await user.tab();
    await acceptTerms(user);
    await user.click(confirmButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(messages.partyChildRequired));
    expect(calls(fetchMock, '/api/v1/birthday-party/booking/checkout')).toHaveLength(0);
  });

  it('clears each error as soon as its cause is fixed, without another Confirm (issue 21 point 5)', async () => {
    store();
    stubCheckout();
    renderParty(CHECKOUT);
    const user = await ready();

    await chooseNewChild(user);
    await user.click(confirmButton());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(messages.partyChildRequired)).toBeTruthy();
    expect(within(alert).getByText(messages.acceptTerms)).toBeTruthy();

    await acceptTerms(user);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(messages.partyChildRequired));
    await user.type(childCard().getByLabelText('First name'), 'Mia');
    await user.type(childCard().getByLabelText('Last name'), 'Lee');
    await user.type(childCard().getByLabelText('Date of birth'), '04/05/2019');
    await user.tab();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('keeps coupon and NSW voucher mutually exclusive; each applied code prices again', async () => {
    store();
    const fetchMock = stubCheckout();
    renderParty(CHECKOUT);
    const user = await ready();
    await expectCodesExclusive(user, () => chargeUrls(fetchMock).at(-1));
  });

  it('aborts a calculation still in flight when a code is applied', async () => {
    store();
    const first = deferred<Response>();
    let signal: AbortSignal | null | undefined;
    const fetchMock = stubCheckout({
      'GET /api/v1/calculate-charges-summary': (url, init) => {
        if (url.searchParams.has('coupon_code'))
          return json(partyCharges(12, { coupon: 4450, couponCode: 'PARTY10' }));
        signal = init.signal;
        return first.promise;
      },
    });
    renderParty(CHECKOUT);
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Party checkout' });
    await waitFor(() => expect(signal).toBeTruthy());

    await user.type(screen.getByLabelText('Coupon code'), 'PARTY10');
    await user.click(screen.getByRole('button', { name: 'Apply coupon' }));

    await waitFor(() => expect(signal?.aborted).toBe(true));
    await waitFor(() => expect(within(screen.getByTestId('price-lines')).getByText('Coupon')).toBeTruthy());
    expect(chargeUrls(fetchMock)).toHaveLength(2);
  });

  it('posts the party with the child and the amount due now, and follows a payment link', async () => {
    store();
    const fetchMock = stubCheckout({
      'POST /api/v1/birthday-party/booking/checkout': () =>
        json({ valid: true, method: 'test', payment_link: 'http://localhost/payments/test?session=ts_1' }),
    });
    renderParty(CHECKOUT);
    const user = await ready();

    await user.type(screen.getByLabelText('Coupon code'), 'PARTY10');
    await user.click(screen.getByRole('button', { name: 'Apply coupon' }));
    await waitFor(() => expect(within(screen.getByTestId('price-lines')).getByText('Coupon')).toBeTruthy());
    await waitFor(() => expect(confirmButton().hasAttribute('disabled')).toBe(false));
    await acceptTerms(user);
    await user.click(confirmButton());

    await waitFor(() =>
      expect(leaveForUrl).toHaveBeenCalledExactlyOnceWith('http://localhost/payments/test?session=ts_1'),
    );
    const [url, init] = calls(fetchMock, '/api/v1/birthday-party/booking/checkout')[0] ?? [];
    expect(url).toBe('/api/v1/birthday-party/booking/checkout?authhash=H1');
    expect(JSON.parse(String(init?.body))).toEqual({
      slot_id: 3,
      date: '2026-03-07',
      quantity: 12,
      amount: 10_000,
      surcharge: 0,
      deposit: 10_000,
      discount_amount: 4450,
      discount_reason: 'Coupon',
      coupon_code: 'PARTY10',
      nsw_coupon_code: '',
      student: { id: 7, first_name: '', last_name: '', dob: '' },
      accept_terms: true,
    });
  });

  it('sends a new child with name and date of birth', async () => {
    store();
    const fetchMock = stubCheckout({
      'POST /api/v1/birthday-party/booking/checkout': () => json({ valid: true }),
    });
    const { router } = renderParty(CHECKOUT);
    const user = await ready();

    await chooseNewChild(user);
    await user.type(childCard().getByLabelText('First name'), 'Mia');
    await user.type(childCard().getByLabelText('Last name'), 'Lee');
    await user.type(childCard().getByLabelText('Date of birth'), '03/04/2019');
    await user.tab();
    await acceptTerms(user);
    await user.click(confirmButton());

    // Valid without card data: the booking page's success state.
    await waitFor(() => expect(router.state.location.pathname).toBe('/birthday-party/booking/'));
    expect(router.state.location.search).toBe('?authhash=H1&status=true');
    const [, init] = calls(fetchMock, '/api/v1/birthday-party/booking/checkout')[0] ?? [];
    expect(JSON.parse(String(init?.body)).student).toEqual({
      first_name: 'Mia',
      last_name: 'Lee',
      dob: '2019-04-03',
    });
    expect(leaveForUrl).not.toHaveBeenCalled();
  });

  it('asks to choose again when no party is stored', async () => {
    stubCheckout();
    renderParty(CHECKOUT);

    expect(await screen.findByText(/could not find the party you chose/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to booking' }).getAttribute('href')).toBe(
      '/birthday-party/booking/?authhash=H1',
    );
  });
});
