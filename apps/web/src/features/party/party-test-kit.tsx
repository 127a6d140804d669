import { render } from '@testing-library/react';
import type { ChargesResponse } from '@tumble/contracts/booking';
import type { CalendarDays, SlotCapacityResponse } from '@tumble/contracts/party';
import type { FormDefinition } from '@tumble/contracts/resources';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { createQueryClient } from '../../app/query-client';
import { PartyBookingPage } from './party-booking-page';
import { PartyCheckoutPage } from './party-checkout-page';
import { UpdateGuestPage } from './update-guest-page';

/** Test data and a router with the party pages; other paths show where the page went. */

/**
 * The party pages start from tomorrow: tests run on Monday 2 March 2026, 10am. Only Date is faked,
 * so timers (and waitFor) keep running.
 */
export function onMonday2March() {
  vi.useFakeTimers({ now: new Date(2026, 2, 2, 10, 0, 0), toFake: ['Date'] });
}

/** Sat 7 March: 2 slots free; Sun 8: all taken (reserved); Sat 14: 1 free. Other days locked. */
export function calendarDays(): CalendarDays {
  return {
    '2026-03-07': { available: 2 },
    '2026-03-08': { available: 0 },
    '2026-03-14': { available: 1 },
    '2026-03-15': { available: 2 },
  };
}

export function calendarAnswer(days: CalendarDays = calendarDays()) {
  return { calendar: JSON.stringify(days) };
}

/** Morning (up to 15 guests) and afternoon (up to 5 guests). */
export function slotCapacityData(): SlotCapacityResponse {
  return {
    slots: [
      { id: 3, name: 'Morning party', time: '10:00', duration_minutes: 120 },
      { id: 4, name: 'Afternoon party', time: '14:00', duration_minutes: 90 },
    ],
    capacity: { '3': 15, '4': 5 },
  };
}

const money = (cents: number) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;
const line = (label: string, description: string, value: number) => ({
  label,
  description,
  value,
  formatted: money(value),
});

/** $395 for up to 10 guests, $25 per extra guest, $100 deposit now (the demo company's pricing). */
export function partyCharges(
  guests = 1,
  options: { coupon?: number; errors?: ChargesResponse['errors']; couponCode?: string | null } = {},
): ChargesResponse {
  const subtotal = 39_500 + Math.max(0, guests - 10) * 2500;
  const total = subtotal - (options.coupon ?? 0);
  return {
    pricing_details: {
      subtotal: line('Party', 'Up to 10 guests', subtotal),
      ...(options.coupon ? { coupon: line('Coupon', 'PARTY10', -options.coupon) } : {}),
      total: line('Total', 'Party price', total),
      deposit: line('Deposit', 'Paid now to secure the date', 10_000),
      balance: line('Balance', 'Paid to the venue before the party', total - 10_000),
      amount_due: line('To pay now', 'Charged to your card', 10_000),
    },
    additional_information: { coupon_code: options.couponCode ?? null, nsw_coupon_code: null },
    errors: options.errors ?? {},
  };
}

const guestLabels = {
  child_name: 'Child’s name',
  parent_name: 'Parent’s name',
  parent_email: 'Parent’s email',
  parent_phone: 'Parent’s phone',
} as const;

/** The update-guest form definition: 10 rows; guest 1 already saved. */
export function guestDefinition(): FormDefinition {
  const fields: FormDefinition['fields'] = [];
  for (let position = 1; position <= 10; position++) {
    for (const [name, label] of Object.entries(guestLabels)) {
      fields.push({
        name: `guest_${position}_${name}`,
        type: name === 'parent_email' ? 'email' : name === 'parent_phone' ? 'phone' : 'text',
        label: `Guest ${position}: ${label}`,
        required: false,
        readOnly: false,
        max: 120,
        value:
          position === 1
            ? { child_name: 'Ollie', parent_name: 'Sam', parent_email: 'sam@example.test', parent_phone: '' }[
                name
              ]
            : null,
      });
    }
  }
  return { title: 'Guests for 07/03/2026 (up to 12)', fields };
}

/** Shows the path and query a page navigated to. */
function Elsewhere() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

export function renderParty(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/birthday-party/booking', Component: PartyBookingPage },
      { path: '/birthday-party/booking/checkout', Component: PartyCheckoutPage },
      { path: '/birthday-party/update-guest', Component: UpdateGuestPage },
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
