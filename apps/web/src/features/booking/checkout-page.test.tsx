import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { encodeCell } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it, vi } from 'vitest';
import { leaveForUrl } from '../../components/browser-navigation';
import { deferred } from '../../test/deferred';
import { studentAcl } from '../../test/fixtures';
import { json, stubServer } from '../../test/render';
import {
  checkoutBasics,
  expectCodesExclusive,
  expectConfirmWaitsForPrice,
  parentChildren,
} from '../checkout/checkout-test-kit';
import type { EventInsurances } from './api/insurances';
import { bookingPageData, chargesData, E, renderBooking } from './booking-test-kit';
import { CHECKOUT_STORAGE_KEY, type StoredCheckout } from './checkout-storage';

vi.mock('../../components/browser-navigation', () => ({ leaveForUrl: vi.fn() }));

const CHECKOUT = `/booking/checkout?authhash=H1&b=${E}`;
const BOOKED = encodeCell(1, 11, '2026-01-07');
const WAITING = encodeCell(1, 12, '2026-01-08');

function store(overrides: Partial<StoredCheckout> = {}) {
  const data: StoredCheckout = {
    event_id: 1,
    event_name: 'Summer Gymnastics Holiday Camp',
    quantity: 1,
    booked: [BOOKED],
    waiting: [WAITING],
    bookingFee: 250,
    pricing: null,
    errors: {},
    ...overrides,
  };
  window.localStorage.setItem(CHECKOUT_STORAGE_KEY, JSON.stringify(data));
}

const INSURANCES: EventInsurances = {
  daily: { id: 1, name: 'Daily accident cover', price: 300 },
  full: [{ id: 2, name: 'Season cover', price: 2500 }],
  children: { '7': { insurance_ids: [2] }, '8': { insurance_ids: [] } },
};

type Handler = Parameters<typeof stubServer>[0][string];

function stubCheckout(handlers: Record<string, Handler> = {}) {
  return stubServer({
    'GET /rest/acl': () => json(studentAcl()),
    'GET /api/v1/booking': () => json(bookingPageData()),
    'GET /api/v1/students/children': parentChildren,
    'GET /api/v1/students/events/insurances': () => json(INSURANCES),
    'GET /api/v1/booking/payment-terms': () => json({ content: '<p>Payment is due at booking.</p>' }),
    'GET /api/v1/calculate-charges-summary': () => json(chargesData()),
    ...handlers,
  });
}

const calls = (fetchMock: ReturnType<typeof stubServer>, prefix: string) =>
  fetchMock.mock.calls.filter(([url]) => String(url).startsWith(prefix));

async function ready() {
  const user = userEvent.setup();
  await screen.findByRole('heading', { name: 'Checkout' });
  await waitFor(() =>
    expect(
      screen.getByRole('button', { name: /^(Confirm Payment|Join the waitlist)$/ }).hasAttribute('disabled'),
    ).toBe(false),
  );
  return user;
}

function child(position: number) {
  return within(screen.getByRole('region', { name: `Child ${position}` }));
}

async function chooseChild(user: ReturnType<typeof userEvent.setup>, position: number, name: string) {
  const select = child(position).getByRole('combobox', { name: 'Child' });
  await user.selectOptions(select, within(select).getByRole('option', { name }));
}

async function completeChild1(user: ReturnType<typeof userEvent.setup>) {
  await user.click(child(1).getByRole('radio', { name: /Daily insurance/ }));
  await user.click(screen.getByRole('checkbox', { name: /accept the Terms and Conditions/ }));
}

describe('CheckoutPage', () => {
  checkoutBasics({
    path: CHECKOUT,
    prepare: () => {
      store();
      stubCheckout();
    },
    renderPage: () => renderBooking(CHECKOUT),
    company: 'Bounce Gymnastics',
    terms: 'Payment is due at booking.',
  });

  it('shows the summary by date and price lines; prices on load', async () => {
    store();
    const fetchMock = stubCheckout();
    renderBooking(CHECKOUT);
    await ready();

    const summary = within(screen.getByTestId('booking-summary'));
    expect(summary.getByText('Wednesday 07/01/2026')).toBeTruthy();
    expect(summary.getByText('Thursday 08/01/2026')).toBeTruthy();
    expect(summary.getByText('Waitlist')).toBeTruthy();
    expect(screen.getByTestId('price-total').textContent).toBe('$47.50');
    expect(within(screen.getByTestId('price-lines')).getByText('Booking fee')).toBeTruthy();
    const url = new URL(String(calls(fetchMock, '/api/v1/calculate-charges-summary')[0]?.[0]), 'http://x');
    expect(url.searchParams.getAll('booked')).toEqual([BOOKED]);
    const select = child(1).getByRole('combobox', { name: 'Child' }) as HTMLSelectElement;
    expect(select.selectedOptions[0]?.textContent).toBe('Ava Parent');
    expect([...select.options].map((o) => o.textContent)).toEqual(['Ava Parent', 'Ben Parent', 'New child']);
  });

  it('disables Confirm Payment while the price is being calculated', async () => {
    store();
    const pending = deferred<Response>();
    stubCheckout({ 'GET /api/v1/calculate-charges-summary': () => pending.promise });
    renderBooking(CHECKOUT);
    await expectConfirmWaitsForPrice(pending, json(chargesData()));
  });

  it('recalculates when an insurance choice changes, sending students[n] insurance', async () => {
    store();
    const fetchMock = stubCheckout();
    renderBooking(CHECKOUT);
    const user = await ready();

    await user.click(child(1).getByRole('radio', { name: /Full insurance/ }));
    await user.click(await screen.findByRole('checkbox', { name: /Season cover/ }));

    await waitFor(() => {
      const last = calls(fetchMock, '/api/v1/calculate-charges-summary').at(-1);
      const params = new URL(String(last?.[0]), 'http://x').searchParams;
      expect(params.get('students[0][insurance_type]')).toBe('full_insurance');
      expect(params.getAll('students[0][insurance_ids][]')).toEqual(['2']);
    });
  });

  it("starts a chosen child's insurance from the family's usual choice", async () => {
    store();
    stubCheckout({
      'GET /api/v1/students/children': () =>
        json([
          {
            id: 7,
            first_name: 'Ava',
            last_name: 'Parent',
            dob: '2018-03-04',
            insurance_type: 'daily_insurance',
          },
        ]),
    });
    renderBooking(CHECKOUT);
    const user = await ready();

    await chooseChild(user, 1, 'Ava Parent');

    expect((child(1).getByRole('radio', { name: /Daily insurance/ }) as HTMLInputElement).checked).toBe(true);
  });

  it("says 'Already purchased insurance' for a child with no full products left", async () => {
    store();
    stubCheckout();
    renderBooking(CHECKOUT);
    const user = await ready();

    expect(child(1).queryByText(messages.alreadyPurchasedInsurance)).toBeNull();
    await chooseChild(user, 1, 'Ben Parent');

    expect(child(1).getByText(messages.alreadyPurchasedInsurance)).toBeTruthy();
    expect(
      child(1)
        .getByRole('radio', { name: /Full insurance/ })
        .hasAttribute('disabled'),
    ).toBe(true);
  });

  it('asks no insurance when only waitlisted days are chosen', async () => {
    store({ booked: [] });
    const fetchMock = stubCheckout();
    renderBooking(CHECKOUT);
    await ready();

    expect(screen.queryByRole('radio', { name: /insurance/i })).toBeNull();
    // Nothing is paid for waitlisted days: the button says so.
    expect(screen.getByRole('button', { name: 'Join the waitlist' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm Payment' })).toBeNull();
    expect(calls(fetchMock, '/api/v1/calculate-charges-summary')).toHaveLength(0);
    expect(calls(fetchMock, '/api/v1/students/events/insurances')).toHaveLength(0);
  });

  it('validates children, insurance and terms with the SPEC messages before posting', async () => {
    store({ quantity: 4 });
    const fetchMock = stubCheckout();
    renderBooking(CHECKOUT);
    const user = await ready();

    // Child 1 and 2 both Ava; child 3 new without a name; child 4 new with an impossible date.
    await chooseChild(user, 2, 'Ava Parent');
    await user.type(child(4).getByLabelText('First name'), 'Mia');
    await user.type(child(4).getByLabelText('Last name'), 'Lee');
    await user.type(child(4).getByLabelText('Date of birth'), '31/02/2019');
    await user.tab();
    const scrollTo = vi.spyOn(window, 'scrollTo');
    await user.click(screen.getByRole('button', { name: 'Confirm Payment' }));

    const alert = await screen.findByRole('alert');
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));
    for (const message of [
      messages.childrenUnique,
      messages.newChildIncomplete(1),
      messages.newChildDobInvalid(2),
      messages.selectInsurance,
      messages.acceptTerms,
    ]) {
      expect(within(alert).getByText(message)).toBeTruthy();
    }
    expect(calls(fetchMock, '/api/v1/booking/checkout')).toHaveLength(0);
  });

  it('asks for at least one product when full insurance is chosen', async () => {
    store();
    stubCheckout();
    renderBooking(CHECKOUT);
    const user = await ready();

    await user.click(child(1).getByRole('radio', { name: /Full insurance/ }));
    await user.click(screen.getByRole('checkbox', { name: /accept the Terms and Conditions/ }));
    await user.click(screen.getByRole('button', { name: 'Confirm Payment' }));

    expect((await screen.findByRole('alert')).textContent).toContain(messages.selectInsurance);
  });

  it('keeps coupon and NSW voucher mutually exclusive and shows the server message beside the field', async () => {
    store();
    const fetchMock = stubCheckout({
      'GET /api/v1/calculate-charges-summary': (url) =>
        json(
          chargesData(
            4750,
            {},
            url.searchParams.get('coupon_code') === 'BAD'
              ? { invalid_coupon_code_message: 'Coupon is invalid.' }
              : {},
          ),
        ),
    });
    renderBooking(CHECKOUT);
    const user = await ready();
    await expectCodesExclusive(user, () => {
      const last = calls(fetchMock, '/api/v1/calculate-charges-summary').at(-1);
      return last ? new URL(String(last[0]), 'http://x') : undefined;
    });
  });

  it('asks no insurance where the company sells none, and posts (issue 21 point 6)', async () => {
    store();
    const fetchMock = stubCheckout({
      'GET /api/v1/students/events/insurances': () => json({ daily: null, full: [], children: {} }),
      'POST /api/v1/booking/checkout': () => json({ valid: true }),
    });
    renderBooking(CHECKOUT);
    const user = await ready();

    expect(screen.queryByRole('radiogroup', { name: 'Insurance' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: /accept the Terms and Conditions/ }));
    await user.click(screen.getByRole('button', { name: 'Confirm Payment' }));
    await waitFor(() => expect(calls(fetchMock, '/api/v1/booking/checkout')).toHaveLength(1));
    expect(screen.queryByText(messages.selectInsurance)).toBeNull();
  });

  it('books a child who holds every full-cover product where no daily product is sold', async () => {
    store();
    const fetchMock = stubCheckout({
      'GET /api/v1/students/events/insurances': () =>
        json({
          ...INSURANCES,
          daily: null,
          children: { '7': { insurance_ids: [] }, '8': { insurance_ids: [2] } },
        }),
      'POST /api/v1/booking/checkout': () => json({ valid: true }),
    });
    renderBooking(CHECKOUT);
    const user = await ready();

    await user.click(screen.getByRole('checkbox', { name: /accept the Terms and Conditions/ }));
    await user.click(screen.getByRole('button', { name: 'Confirm Payment' }));
    await waitFor(() => expect(calls(fetchMock, '/api/v1/booking/checkout')).toHaveLength(1));
    expect(screen.queryByText(messages.selectInsurance)).toBeNull();
  });

  it('posts the checkout and follows a test or square payment link', async () => {
    store();
    const fetchMock = stubCheckout({
      'POST /api/v1/booking/checkout': () =>
        json({ valid: true, method: 'test', payment_link: 'http://localhost/payments/test?session=ts_1' }),
    });
    renderBooking(CHECKOUT);
    const user = await ready();

    await completeChild1(user);
    await user.click(screen.getByRole('button', { name: 'Confirm Payment' }));

    await waitFor(() =>
      expect(leaveForUrl).toHaveBeenCalledExactlyOnceWith('http://localhost/payments/test?session=ts_1'),
    );
    const [url, init] = calls(fetchMock, '/api/v1/booking/checkout')[0] ?? [];
    expect(url).toBe('/api/v1/booking/checkout?authhash=H1');
    expect(JSON.parse(String(init?.body))).toMatchObject({
      event_id: 1,
      quantity: 1,
      booked: [BOOKED],
      waiting: [WAITING],
      children: [{ id: 7, insurance_type: 'daily_insurance', insurance_ids: [] }],
      amount: 4750,
      booking_fee: 250,
      accept_terms: true,
    });
  });

  it('goes to step 3 with status=true when there is nothing to pay', async () => {
    store();
    stubCheckout({ 'POST /api/v1/booking/checkout': () => json({ valid: true }) });
    const { router } = renderBooking(CHECKOUT);
    const user = await ready();

    await completeChild1(user);
    await user.click(screen.getByRole('button', { name: 'Confirm Payment' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/booking'));
    expect(router.state.location.search).toBe('?authhash=H1&status=true');
    expect(window.localStorage.getItem(CHECKOUT_STORAGE_KEY)).toBeNull();
    expect(leaveForUrl).not.toHaveBeenCalled();
  });

  it.each([
    ['valid false', () => json({ valid: false }), messages.checkoutInvalid],
    [
      'the server message',
      () => json({ message: 'Sorry, Full day on 07/01 is full.' }, { status: 409 }),
      'Sorry, Full day on 07/01 is full.',
    ],
    ['the generic failure', () => json({}, { status: 500 }), messages.checkoutFailed],
  ])('shows %s above the form', async (_, answer, text) => {
    store();
    stubCheckout({ 'POST /api/v1/booking/checkout': answer });
    renderBooking(CHECKOUT);
    const user = await ready();

    await completeChild1(user);
    const scrollTo = vi.spyOn(window, 'scrollTo');
    await user.click(screen.getByRole('button', { name: 'Confirm Payment' }));

    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));
  });

  it('asks to choose again when no checkout data is stored for this event', async () => {
    stubCheckout();
    renderBooking(CHECKOUT);

    expect(await screen.findByText(/could not find the sessions you chose/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to booking' }).getAttribute('href')).toBe(
      `/booking?e=${E}&authhash=H1`,
    );
  });
});
