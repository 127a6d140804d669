import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { encodeCell, PAYMENT_CANCELLED } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { deferred } from '../../test/deferred';
import { json, stubServer } from '../../test/render';
import { bookingPageData, chargesData, E, renderBooking, sessionsData } from './booking-test-kit';
import { CHECKOUT_STORAGE_KEY } from './checkout-storage';

const BOOKING = `/booking?e=${E}&authhash=H1`;

function stubBooking(
  options: { page?: ReturnType<typeof bookingPageData>; charges?: () => Response | Promise<Response> } = {},
) {
  return stubServer({
    'GET /api/v1/booking': () => json(options.page ?? bookingPageData()),
    'GET /api/v1/booking/sessions': () => json(sessionsData()),
    'GET /api/v1/calculate-charges-summary': options.charges ?? (() => json(chargesData())),
    'GET /rest/acl': () => json({}, { status: 404 }),
  });
}

async function openStep2() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Book Now' }));
  await screen.findByTestId('session-calendar');
  return user;
}

const option = (name: RegExp) => screen.getByRole('checkbox', { name });
const WED_MORNING = /^Wednesday 07\/01\/2026, Morning camp/;
const WED_FULL_DAY = /^Wednesday 07\/01\/2026, Full day/;
const THU_FULL_DAY = /^Thursday 08\/01\/2026, Full day/;
const FRI_MORNING = /^Friday 09\/01\/2026, Morning camp/;

function chargeCalls(fetchMock: ReturnType<typeof stubServer>) {
  return fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/v1/calculate-charges-summary'));
}

describe('BookingPage step 1: event details', () => {
  it('shows the event with its dates, age range, HTML, contacts, venue map link and downloads', async () => {
    stubBooking();
    renderBooking(BOOKING);

    expect(await screen.findByRole('heading', { name: 'Summer Gymnastics Holiday Camp' })).toBeTruthy();
    expect(screen.getByText('Bounce Gymnastics')).toBeTruthy();
    expect(screen.getByText('07/01/2026 – 16/01/2026')).toBeTruthy();
    expect(screen.getByText('Ages 5–12')).toBeTruthy();
    expect(screen.getByText('water bottle').tagName).toBe('STRONG');
    expect(screen.getByRole('link', { name: 'camps@bounce.test' }).getAttribute('href')).toBe(
      'mailto:camps@bounce.test',
    );
    expect(screen.getByRole('link', { name: 'View on map' }).getAttribute('href')).toBe(
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent('Bounce Centre, 12 Church Street, Parramatta, 2150, Australia')}`,
    );
    expect(screen.getByRole('link', { name: 'Camp flyer' }).getAttribute('href')).toBe(
      'https://files.example.test/flyer.pdf',
    );
    expect(screen.getByRole('button', { name: 'Book Now' }).hasAttribute('disabled')).toBe(false);
    expect(screen.queryByText(messages.noSessions)).toBeNull();
  });

  it('says the payment was cancelled when the card page sent the parent back with Cancel', async () => {
    stubBooking();
    renderBooking(`${BOOKING}&status=cancelled`);

    await screen.findByRole('heading', { name: 'Summer Gymnastics Holiday Camp' });
    expect(screen.getByText(PAYMENT_CANCELLED)).toBeTruthy();
  });

  it.each([
    [0, 100, null],
    [7, 100, 'Ages 7+'],
    [0, 12, 'Ages up to 12'],
  ])('age_start %i and age_end %i show %s', async (age_start, age_end, text) => {
    stubBooking({ page: bookingPageData({ event: { age_start, age_end } }) });
    renderBooking(BOOKING);

    await screen.findByRole('heading', { name: 'Summer Gymnastics Holiday Camp' });
    expect(screen.queryByText(/^Ages /)?.textContent ?? null).toBe(text);
  });

  it('disables Book Now with the no-sessions message when nothing is bookable', async () => {
    stubBooking({ page: bookingPageData({ bookable: false }) });
    renderBooking(BOOKING);

    const button = await screen.findByRole('button', { name: 'Book Now' });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(messages.noSessions)).toBeTruthy();
  });

  it('says there is no event data for a bad e without asking the server, and for a 404', async () => {
    const fetchMock = stubServer({
      'GET /api/v1/booking': () => json({ message: messages.noEventData }, { status: 404 }),
    });
    const first = renderBooking('/booking?e=zz&authhash=H1');
    expect(await screen.findByText(messages.noEventData)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    first.unmount();

    renderBooking(`/booking?e=${E}&authhash=unknown`);
    expect(await screen.findByText(messages.noEventData)).toBeTruthy();
  });

  it("shows 'Go to my account' to a signed-in parent only", async () => {
    stubBooking();
    const first = renderBooking(BOOKING);
    await screen.findByRole('button', { name: 'Book Now' });
    expect(screen.queryByRole('link', { name: 'Go to my account' })).toBeNull();
    first.unmount();

    api.setToken('tok');
    renderBooking(BOOKING);
    await screen.findByRole('button', { name: 'Book Now' });
    expect(screen.getByRole('link', { name: 'Go to my account' }).getAttribute('href')).toBe(
      '/admin/students/profile',
    );
  });
});

describe('BookingPage step 2: sessions', () => {
  it('lays out weeks from Monday to Sunday', async () => {
    stubBooking();
    renderBooking(BOOKING);
    await openStep2();

    expect(screen.getAllByTestId('weekday-header').map((el) => el.textContent)).toEqual([
      'Mon',
      'Tue',
      'Wed',
      'Thu',
      'Fri',
      'Sat',
      'Sun',
    ]);
    const weeks = screen.getAllByTestId('calendar-week');
    expect(weeks.map((week) => week.getAttribute('data-week-start'))).toEqual(['2026-01-05', '2026-01-12']);
    const firstWeekDays = within(weeks[0]!).getAllByTestId('calendar-day');
    expect(firstWeekDays.map((day) => day.getAttribute('data-date'))).toEqual([
      '2026-01-05',
      '2026-01-06',
      '2026-01-07',
      '2026-01-08',
      '2026-01-09',
      '2026-01-10',
      '2026-01-11',
    ]);
    expect(within(firstWeekDays[0]!).getByText('Mon 05/01')).toBeTruthy();
  });

  it('shows places left and price, Waitlist for full days, and disables expired ones', async () => {
    stubBooking();
    renderBooking(BOOKING);
    await openStep2();

    expect(option(WED_MORNING).getAttribute('aria-label')).toContain('12 left · $45.00');
    expect(option(THU_FULL_DAY).getAttribute('aria-label')).toContain('Full · Waitlist');
    expect(option(FRI_MORNING).hasAttribute('disabled')).toBe(true);
  });

  it('shows Checkout only once something is selected and no calculation is running', async () => {
    const pending = deferred<Response>();
    const fetchMock = stubBooking({ charges: () => pending.promise });
    renderBooking(BOOKING);
    const user = await openStep2();

    expect(screen.queryByRole('button', { name: 'Checkout' })).toBeNull();
    await user.click(option(WED_MORNING));

    expect(option(WED_MORNING).getAttribute('aria-checked')).toBe('true');
    await waitFor(() => expect(chargeCalls(fetchMock)).toHaveLength(1));
    expect(screen.getByText('Calculating…')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Checkout' })).toBeNull();

    pending.resolve(json(chargesData(4750)));
    expect(await screen.findByRole('button', { name: 'Checkout' })).toBeTruthy();
    expect(screen.getByTestId('running-total').textContent).toBe('Total $47.50');
    const url = new URL(String(chargeCalls(fetchMock)[0]?.[0]), 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      authhash: 'H1',
      event_id: '1',
      quantity: '1',
      booked: encodeCell(1, 11, '2026-01-07'),
      type_of_registration: 'event',
    });
  });

  it('aborts the calculation in flight when the selection changes', async () => {
    const first = deferred<Response>();
    let calls = 0;
    const fetchMock = stubBooking({
      charges: () => (++calls === 1 ? first.promise : json(chargesData(12_250))),
    });
    renderBooking(BOOKING);
    const user = await openStep2();

    await user.click(option(WED_MORNING));
    await waitFor(() => expect(chargeCalls(fetchMock)).toHaveLength(1));
    await user.click(option(WED_FULL_DAY));
    await waitFor(() => expect(chargeCalls(fetchMock)).toHaveLength(2));

    const [firstCall, secondCall] = chargeCalls(fetchMock);
    expect(firstCall?.[1]?.signal?.aborted).toBe(true);
    expect(secondCall?.[1]?.signal?.aborted).toBe(false);
    expect(new URL(String(secondCall?.[0]), 'http://x').searchParams.getAll('booked')).toEqual([
      encodeCell(1, 11, '2026-01-07'),
      encodeCell(1, 12, '2026-01-07'),
    ]);
    expect(await screen.findByText('Total $122.50')).toBeTruthy();
    // The aborted calculation answering late must not overwrite the newer total.
    first.resolve(json(chargesData(4750)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByTestId('running-total').textContent).toBe('Total $122.50');
  });

  it('clears the selection when the quantity changes', async () => {
    stubBooking();
    renderBooking(BOOKING);
    const user = await openStep2();

    await user.click(option(WED_MORNING));
    await user.click(option(THU_FULL_DAY));
    expect(await screen.findByRole('button', { name: 'Checkout' })).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Number of children'), '3');

    expect(option(WED_MORNING).getAttribute('aria-checked')).toBe('false');
    expect(option(THU_FULL_DAY).getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('selection-summary').textContent).toBe('No sessions selected yet.');
    expect(screen.queryByRole('button', { name: 'Checkout' })).toBeNull();
    // Two places left is now fewer than three children: that day can only be waitlisted.
    expect(option(WED_FULL_DAY).getAttribute('aria-label')).toContain('Only 2 left · Waitlist');
  });

  it('stores the checkout data of SPEC.md point 3 and sends a signed-out parent to sign in first', async () => {
    const fetchMock = stubBooking();
    const { router } = renderBooking(BOOKING);
    const user = await openStep2();

    await user.click(option(WED_MORNING));
    await user.click(option(THU_FULL_DAY));
    await user.click(await screen.findByRole('button', { name: 'Checkout' }));

    expect(JSON.parse(window.localStorage.getItem(CHECKOUT_STORAGE_KEY) ?? 'null')).toEqual({
      event_id: 1,
      event_name: 'Summer Gymnastics Holiday Camp',
      quantity: 1,
      booked: [encodeCell(1, 11, '2026-01-07')],
      waiting: [encodeCell(1, 12, '2026-01-08')],
      bookingFee: 250,
      pricing: {
        pricing_details: chargesData().pricing_details,
        additional_information: chargesData().additional_information,
      },
      errors: {},
    });
    // The full day went to the waitlist: it is never charged.
    const url = new URL(String(chargeCalls(fetchMock).at(-1)?.[0]), 'http://x');
    expect(url.searchParams.getAll('booked')).toEqual([encodeCell(1, 11, '2026-01-07')]);
    const checkout = `/booking/checkout?authhash=H1&b=${E}`;
    expect(router.state.location.pathname).toBe('/admin/students/login');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      authhash: 'H1',
      redirect: checkout,
    });
  });

  it('puts a full day in waiting and goes straight to checkout when signed in', async () => {
    const fetchMock = stubBooking();
    api.setToken('tok');
    const { router } = renderBooking(BOOKING);
    const user = await openStep2();

    await user.click(option(THU_FULL_DAY));
    // Only waitlisted: nothing to price, so Checkout is there at once.
    await user.click(screen.getByRole('button', { name: 'Checkout' }));

    expect(chargeCalls(fetchMock)).toHaveLength(0);
    const stored = JSON.parse(window.localStorage.getItem(CHECKOUT_STORAGE_KEY) ?? 'null');
    expect(stored).toMatchObject({ booked: [], waiting: [encodeCell(1, 12, '2026-01-08')], pricing: null });
    expect(router.state.location.pathname).toBe('/booking/checkout');
    expect(router.state.location.search).toBe(`?authhash=H1&b=${E}`);
  });
});

describe('BookingPage step 3', () => {
  it("status=true shows 'Booking Successful!' directly and forgets the checkout data", async () => {
    const fetchMock = stubServer({
      'GET /rest/acl': () =>
        json({
          name: '',
          meta: {
            logo: null,
            role: null,
            is_company: false,
            company_id: 1,
            company_name: 'Bounce Gymnastics',
          },
          navigation: { side: [], top: [] },
        }),
    });
    window.localStorage.setItem(CHECKOUT_STORAGE_KEY, '{"event_id":1}');
    renderBooking('/booking?authhash=H1&e=317c31&status=true');

    expect(await screen.findByRole('heading', { name: messages.bookingSuccessful })).toBeTruthy();
    expect(await screen.findByText('Bounce Gymnastics')).toBeTruthy();
    expect(window.localStorage.getItem(CHECKOUT_STORAGE_KEY)).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/v1/booking'))).toBe(false);
  });
});
