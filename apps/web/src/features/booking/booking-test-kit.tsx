import { render } from '@testing-library/react';
import type { BookingPageResponse, ChargesResponse, SessionsResponse } from '@tumble/contracts/booking';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { AppProviders } from '../../app/providers';
import { createQueryClient } from '../../app/query-client';
import { BookingPage } from './booking-page';
import { CheckoutPage } from './checkout-page';
import { InvitationPage } from './invitation-page';

/** Test data and a router with the booking pages; other paths show where the page went. */

/** `e` of company 1, event 1. */
export const E = '317c31';

export function bookingPageData(
  overrides: { event?: Partial<BookingPageResponse['event']>; bookable?: boolean } = {},
): BookingPageResponse {
  return {
    event: {
      id: 1,
      code: E,
      name: 'Summer Gymnastics Holiday Camp',
      start_date: '2026-01-07',
      end_date: '2026-01-16',
      age_start: 5,
      age_end: 12,
      intro: '<p>Two weeks of tumbling.</p>',
      full: '<p>Bring a <strong>water bottle</strong>.</p>',
      Contacts: [{ name: 'Casey Coach', email: 'camps@bounce.test', phone: '0400 123 456' }],
      Venue: { name: 'Bounce Centre', address: '12 Church Street', suburb: 'Parramatta', postcode: '2150' },
      Downloads: [{ name: 'Camp flyer', file: 'https://files.example.test/flyer.pdf' }],
      Sessions: [
        {
          id: 11,
          name: 'Morning camp',
          start_date: '2026-01-07',
          end_date: '2026-01-16',
          start_time: '09:00',
          end_time: '12:00',
        },
        {
          id: 12,
          name: 'Full day',
          start_date: '2026-01-07',
          end_date: '2026-01-16',
          start_time: '09:00',
          end_time: '15:00',
        },
      ],
      cutoff_days_before: 1,
      cut_off_day: true,
      cutoff_time: '17:00',
      ...overrides.event,
    },
    settings: {
      booking_fee: 250,
      daily_insurance_id: 1,
      quantity_max: 10,
      hold_minutes: 30,
      currency: 'AUD',
    },
    company: { name: 'Bounce Gymnastics', logo: null },
    bookable: overrides.bookable ?? true,
  };
}

type Day = SessionsResponse['days'][string][number];
const morning = (over: Partial<Day> = {}): Day => ({
  session_id: 11,
  name: 'Morning camp',
  start_time: '09:00',
  end_time: '12:00',
  status: 'bookable',
  available: 12,
  price: 4500,
  ...over,
});
const fullDay = (over: Partial<Day> = {}): Day => ({
  session_id: 12,
  name: 'Full day',
  start_time: '09:00',
  end_time: '15:00',
  status: 'bookable',
  available: 2,
  price: 7500,
  ...over,
});

/** Wed 7 Jan: both bookable (full day has 2 left); Thu 8: full day is full; Fri 9: expired. */
export function sessionsData(): SessionsResponse {
  return {
    event_id: 1,
    today: '2026-01-01',
    days: {
      '2026-01-07': [morning(), fullDay()],
      '2026-01-08': [morning({ available: 5 }), fullDay({ status: 'full', available: 0 })],
      '2026-01-09': [morning({ status: 'expired', available: 10 })],
      '2026-01-12': [morning()],
    },
  };
}

export function chargesData(
  total = 4750,
  extra: Partial<ChargesResponse['pricing_details']> = {},
  errors: ChargesResponse['errors'] = {},
): ChargesResponse {
  const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
  return {
    pricing_details: {
      subtotal: { label: 'Sessions', description: '1 day', value: 4500, formatted: money(4500) },
      booking_fee: {
        label: 'Booking fee',
        description: 'Once per booking',
        value: 250,
        formatted: money(250),
      },
      ...extra,
      total: { label: 'Total', description: '', value: total, formatted: money(total) },
    },
    additional_information: { coupon_code: null, nsw_coupon_code: null },
    errors,
  };
}

/** Shows the path and query a page navigated to. */
function Elsewhere() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

export function renderBooking(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/booking', Component: BookingPage },
      { path: '/booking/checkout', Component: CheckoutPage },
      { path: '/events/invitation/confirm', Component: InvitationPage },
      { path: '*', Component: Elsewhere },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router };
}
