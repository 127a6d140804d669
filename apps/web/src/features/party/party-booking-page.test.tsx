import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PAYMENT_CANCELLED } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { json, stubServer } from '../../test/render';
import { PARTY_CHECKOUT_STORAGE_KEY } from './party-checkout-storage';
import {
  calendarAnswer,
  onMonday2March,
  partyCharges,
  renderParty,
  slotCapacityData,
} from './party-test-kit';

const BOOKING = '/birthday-party/booking/?authhash=H1';

type Handler = Parameters<typeof stubServer>[0][string];

function stubBooking(handlers: Record<string, Handler> = {}) {
  return stubServer({
    'GET /rest/acl': () =>
      json({
        name: 'Bounce Gymnastics',
        meta: { logo: null, role: null, is_company: false, company_id: 7, company_name: 'Bounce Gymnastics' },
        navigation: { side: [], top: [] },
      }),
    'GET /api/v1/birthday-party/booking/load-calendar': () => json(calendarAnswer()),
    'GET /api/v1/birthday-party/booking/slot-capacity': () => json(slotCapacityData()),
    'GET /api/v1/calculate-charges-summary': (url) =>
      json(partyCharges(Number(url.searchParams.get('quantity')))),
    ...handlers,
  });
}

const calls = (fetchMock: ReturnType<typeof stubServer>, prefix: string) =>
  fetchMock.mock.calls
    .map(([url]) => new URL(String(url), 'http://x'))
    .filter((url) => url.pathname === prefix);

const day = (label: RegExp) => screen.getByRole('button', { name: label });
const guestsSelect = () => screen.getByRole('combobox', { name: /Guests/ }) as HTMLSelectElement;
const checked = (name: RegExp) => screen.getByRole('radio', { name }).getAttribute('aria-checked') === 'true';
const summary = () => within(screen.getByRole('region', { name: 'Reservation summary' }));

async function calendarReady() {
  const user = userEvent.setup();
  await waitFor(() => expect(day(/^7 March 2026, available$/).hasAttribute('disabled')).toBe(false), {
    timeout: 3000,
  });
  return user;
}

async function pickSaturday7(user: ReturnType<typeof userEvent.setup>) {
  await user.click(day(/^7 March 2026, available$/));
  await waitFor(() => expect(screen.getByRole('radio', { name: /Morning party/ })).toBeTruthy());
}

beforeEach(onMonday2March);
afterEach(() => {
  vi.useRealTimers();
});

describe('PartyBookingPage calendar', () => {
  it('says the payment was cancelled when the card page sent the parent back with Cancel', async () => {
    stubBooking();
    renderParty(`${BOOKING}&status=cancelled`);
    await calendarReady();

    expect(screen.getByText(PAYMENT_CANCELLED)).toBeTruthy();
  });

  it('shows the month from tomorrow with weeks from Monday; earlier months cannot be reached', async () => {
    const fetchMock = stubBooking();
    renderParty(BOOKING);
    await calendarReady();

    expect(await screen.findByText('Bounce Gymnastics')).toBeTruthy();
    expect(screen.getByText('March 2026')).toBeTruthy();
    const weekdays = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(weekdays[0]).toBe('Mo');
    expect(weekdays[6]).toBe('Su');
    expect(screen.getByRole('button', { name: 'Previous month' }).hasAttribute('disabled')).toBe(true);
    // Today (2 March) is in the past for parties.
    expect(day(/^2 March 2026/).hasAttribute('disabled')).toBe(true);
    expect(
      calls(fetchMock, '/api/v1/birthday-party/booking/load-calendar')[0]?.searchParams.get('year'),
    ).toBe('2026');
  });

  it('keeps reserved days (0 available) and days absent from the calendar unpickable', async () => {
    const fetchMock = stubBooking();
    renderParty(BOOKING);
    const user = await calendarReady();

    const reserved = day(/^8 March 2026, reserved, fully booked$/);
    const locked = day(/^10 March 2026, not available$/);
    expect(reserved.hasAttribute('disabled')).toBe(true);
    expect(reserved.getAttribute('data-party-day')).toBe('reserved');
    expect(reserved.style.textDecoration).toBe('line-through');
    expect(locked.hasAttribute('disabled')).toBe(true);
    expect(locked.getAttribute('data-party-day')).toBe('locked');

    await user.click(reserved);
    await user.click(locked);
    expect(calls(fetchMock, '/api/v1/birthday-party/booking/slot-capacity')).toHaveLength(0);
    expect(summary().getByText(/Choose a date on the calendar/)).toBeTruthy();
  });

  it('asks for the calendar once per year, again only for another year', async () => {
    const fetchMock = stubBooking();
    renderParty(BOOKING);
    const user = await calendarReady();

    await user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(await screen.findByText('April 2026')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    await screen.findByText('March 2026');
    expect(calls(fetchMock, '/api/v1/birthday-party/booking/load-calendar')).toHaveLength(1);

    for (let i = 0; i < 10; i++) await user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(await screen.findByText('January 2027')).toBeTruthy();
    await waitFor(() =>
      expect(
        calls(fetchMock, '/api/v1/birthday-party/booking/load-calendar').map((url) =>
          url.searchParams.get('year'),
        ),
      ).toEqual(['2026', '2027']),
    );
  });

  it("says 'Something wrong!' when the calendar is empty", async () => {
    stubBooking({ 'GET /api/v1/birthday-party/booking/load-calendar': () => json(calendarAnswer({})) });
    renderParty(BOOKING);

    expect((await screen.findByRole('alert')).textContent).toBe(messages.somethingWrongCalendar);
  });
});

describe('PartyBookingPage slot and guests', () => {
  it('choosing a date loads its slots, selects the first slot and sets guests to 1', async () => {
    const fetchMock = stubBooking();
    renderParty(BOOKING);
    const user = await calendarReady();

    await pickSaturday7(user);

    expect(
      calls(fetchMock, '/api/v1/birthday-party/booking/slot-capacity')[0]?.searchParams.get('date'),
    ).toBe('2026-03-07');
    expect(checked(/Morning party/)).toBe(true);
    expect(checked(/Afternoon party/)).toBe(false);
    expect(guestsSelect().value).toBe('1');
    // Guests run 1 to the chosen slot's capacity.
    expect([...guestsSelect().options].map((o) => o.value)).toEqual(
      Array.from({ length: 15 }, (_, i) => String(i + 1)),
    );

    await waitFor(() => expect(summary().getByTestId('price-amount_due').textContent).toBe('$100.00'));
    expect(summary().getByText('Saturday 07/03/2026')).toBeTruthy();
    expect(summary().getByText('10:00am–12:00pm (Morning party)')).toBeTruthy();
    expect(within(summary().getByTestId('party-summary')).getByText('1')).toBeTruthy();
    expect(summary().getByText('Deposit')).toBeTruthy();
    expect(summary().getByText('Balance')).toBeTruthy();
    expect(summary().getByText('$295.00')).toBeTruthy();
    const charge = calls(fetchMock, '/api/v1/calculate-charges-summary').at(-1);
    expect(Object.fromEntries(charge?.searchParams ?? [])).toEqual({
      authhash: 'H1',
      type_of_registration: 'party',
      date: '2026-03-07',
      quantity: '1',
    });
  });

  it('changing the slot resets guests to 1 and limits them to that slot', async () => {
    const fetchMock = stubBooking();
    renderParty(BOOKING);
    const user = await calendarReady();
    await pickSaturday7(user);

    await user.selectOptions(guestsSelect(), '12');
    await waitFor(() =>
      expect(calls(fetchMock, '/api/v1/calculate-charges-summary').at(-1)?.searchParams.get('quantity')).toBe(
        '12',
      ),
    );
    expect(within(summary().getByTestId('party-summary')).getByText('12')).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: /Afternoon party/ }));

    expect(guestsSelect().value).toBe('1');
    expect([...guestsSelect().options].map((o) => o.value)).toEqual(['1', '2', '3', '4', '5']);
    expect(summary().getByText('2:00pm–3:30pm (Afternoon party)')).toBeTruthy();
    await waitFor(() =>
      expect(calls(fetchMock, '/api/v1/calculate-charges-summary').at(-1)?.searchParams.get('quantity')).toBe(
        '1',
      ),
    );
  });

  it('choosing another date starts again from its first slot and 1 guest', async () => {
    stubBooking({
      'GET /api/v1/birthday-party/booking/slot-capacity': (url) =>
        json(
          url.searchParams.get('date') === '2026-03-14'
            ? {
                slots: [{ id: 4, name: 'Afternoon party', time: '14:00', duration_minutes: 90 }],
                capacity: { '4': 5 },
              }
            : slotCapacityData(),
        ),
    });
    renderParty(BOOKING);
    const user = await calendarReady();
    await pickSaturday7(user);
    await user.selectOptions(guestsSelect(), '9');

    await user.click(day(/^14 March 2026, available$/));

    await waitFor(() => expect(screen.queryByRole('radio', { name: /Morning party/ })).toBeNull());
    expect(checked(/Afternoon party/)).toBe(true);
    expect(guestsSelect().value).toBe('1');
    expect(guestsSelect().options).toHaveLength(5);
  });

  it("says 'Something wrong!' and offers no checkout when the price is missing", async () => {
    stubBooking({
      'GET /api/v1/calculate-charges-summary': () => json({ message: 'No pricing.' }, { status: 422 }),
    });
    renderParty(BOOKING);
    const user = await calendarReady();
    await pickSaturday7(user);

    expect((await summary().findByRole('alert')).textContent).toBe(messages.somethingWrongCalendar);
    expect(screen.getByRole('button', { name: 'Continue to checkout' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('PartyBookingPage continue', () => {
  async function chooseParty() {
    const user = await calendarReady();
    await pickSaturday7(user);
    await user.selectOptions(guestsSelect(), '12');
    const button = screen.getByRole('button', { name: 'Continue to checkout' });
    await waitFor(() => expect(summary().getAllByText('$445.00')).toHaveLength(2)); // party and total
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    return { user, button };
  }

  it('stores slot_id, time, date, quantity and pricing, then goes to checkout when signed in', async () => {
    api.setToken('tok');
    stubBooking();
    const { router } = renderParty(BOOKING);
    const { user, button } = await chooseParty();

    await user.click(button);

    await waitFor(() => expect(router.state.location.pathname).toBe('/birthday-party/booking/checkout/'));
    expect(router.state.location.search).toBe('?authhash=H1');
    const stored = JSON.parse(window.localStorage.getItem(PARTY_CHECKOUT_STORAGE_KEY) ?? 'null');
    const charges = partyCharges(12);
    expect(stored).toEqual({
      slot_id: 3,
      time: '10:00',
      date: '2026-03-07',
      quantity: 12,
      pricing: {
        pricing_details: charges.pricing_details,
        additional_information: charges.additional_information,
      },
    });
  });

  it('sends a signed-out parent to student login with authhash and a redirect to checkout', async () => {
    stubBooking();
    const { router } = renderParty(BOOKING);
    const { user, button } = await chooseParty();

    await user.click(button);

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/students/login'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      authhash: 'H1',
      redirect: '/birthday-party/booking/checkout/?authhash=H1',
    });
    expect(JSON.parse(window.localStorage.getItem(PARTY_CHECKOUT_STORAGE_KEY) ?? 'null')).toMatchObject({
      slot_id: 3,
      quantity: 12,
    });
  });
});

describe('PartyBookingPage success', () => {
  it("status=true says 'Booking Successful!' and forgets the checkout data", async () => {
    window.localStorage.setItem(PARTY_CHECKOUT_STORAGE_KEY, '{"slot_id":3}');
    const fetchMock = stubBooking();
    renderParty(`${BOOKING}&status=true`);

    expect(await screen.findByRole('heading', { name: messages.bookingSuccessful })).toBeTruthy();
    expect(screen.getByText(/add your guests with the link in that email/)).toBeTruthy();
    expect(window.localStorage.getItem(PARTY_CHECKOUT_STORAGE_KEY)).toBeNull();
    expect(calls(fetchMock, '/api/v1/birthday-party/booking/load-calendar')).toHaveLength(0);
  });
});
