import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays } from '../../platform/time.ts';
import { createBookableEvent, FUTURE_MONDAY } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { eventNames, eventOf, lockSessions, sessionsByIds } from '../events/events.service.ts';
import { eventSessions } from '../events/events.tables.ts';
import { bookedDays } from './booking.service.ts';
import { daysOfBooking } from './booking-changes.service.ts';
import { bookingPlaces, bookings, waitlistEntries } from './bookings.tables.ts';
import { parentWaitlist, waitlistedDaysText } from './waitlist.service.ts';

/**
 * Bookings read sessions and events through the events service and stitch them to their own rows
 * (issue 20): the days still come in time order (by day, then the session's start time, whatever
 * order the rows were made in), and another company's ids read as nothing.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function bookingOnThreeDays() {
  const { db } = t.database;
  const company = await createCompany(db);
  const tenant = new Tenant(company.id);
  const fixture = await createBookableEvent(db, company.id);
  // Made after 'Morning' (a higher id) but starting earlier in the day.
  const [early] = await db
    .insert(eventSessions)
    .values(
      tenant.values({
        eventId: fixture.event.id,
        name: 'Early',
        startDate: FUTURE_MONDAY,
        endDate: addDays(FUTURE_MONDAY, 4),
        startTime: '07:00',
        endTime: '08:30',
        capacity: 5,
      }),
    )
    .returning();
  const parent = await createUser(db, company.id, { role: 'student' });
  const [booking] = await db
    .insert(bookings)
    .values(
      tenant.values({
        parentId: parent.id,
        eventId: fixture.event.id,
        reference: randomToken(12),
        code: `BK-${randomToken(6).toUpperCase()}`,
        status: 'confirmed' as const,
        quantity: 1,
        pricing: {},
        total: 0,
        provider: 'test' as const,
      }),
    )
    .returning();
  const tuesday = addDays(FUTURE_MONDAY, 1);
  // Rows made out of time order on purpose.
  const days = [
    { sessionId: fixture.session.id, date: tuesday },
    { sessionId: fixture.session.id, date: FUTURE_MONDAY },
    { sessionId: early!.id, date: FUTURE_MONDAY },
  ];
  await db
    .insert(bookingPlaces)
    .values(days.map((d) => tenant.values({ bookingId: booking!.id, ...d, places: 1, unitPrice: 4500 })));
  await db.insert(waitlistEntries).values(
    days.map((d) =>
      tenant.values({
        parentId: parent.id,
        eventId: fixture.event.id,
        bookingId: booking!.id,
        ...d,
        places: 1,
      }),
    ),
  );
  return { tenant, fixture, early: early!, parent, booking: booking!, tuesday };
}

describe('bookings stitched to their sessions', () => {
  it('lists a booking’s days and a family’s waitlist by day, then the session’s start time', async () => {
    const { db } = t.database;
    const { tenant, parent, booking, tuesday } = await bookingOnThreeDays();
    const display = (date: string) => date.split('-').reverse().join('/');

    const mail = await bookedDays(db, tenant, booking);
    expect(mail.eventName).toBe('Holiday Camp');
    expect(mail.days.map((d) => [d.date, d.name])).toEqual([
      [FUTURE_MONDAY, 'Early'],
      [FUTURE_MONDAY, 'Morning'],
      [tuesday, 'Morning'],
    ]);

    expect((await daysOfBooking(db, tenant, booking.id)).map((d) => [d.date, d.session, d.time])).toEqual([
      [display(FUTURE_MONDAY), 'Early', '07:00–08:30'],
      [display(FUTURE_MONDAY), 'Morning', '09:00–12:00'],
      [display(tuesday), 'Morning', '09:00–12:00'],
    ]);

    const waitlist = await parentWaitlist(t.deps, tenant, parent.id);
    expect(waitlist.map((w) => [w.date, w.session_name, w.event_name, w.position])).toEqual([
      [FUTURE_MONDAY, 'Early', 'Holiday Camp', 1],
      [FUTURE_MONDAY, 'Morning', 'Holiday Camp', 1],
      [tuesday, 'Morning', 'Holiday Camp', 1],
    ]);

    expect((await waitlistedDaysText(db, tenant, booking.id)).split('\n').slice(1)).toEqual([
      `${display(FUTURE_MONDAY)} Early (number 1 in the queue)`,
      `${display(FUTURE_MONDAY)} Morning (number 1 in the queue)`,
      `${display(tuesday)} Morning (number 1 in the queue)`,
    ]);
  });

  it('reads nothing of another company’s events and sessions', async () => {
    const { db } = t.database;
    const { fixture, early } = await bookingOnThreeDays();
    const stranger = new Tenant((await createCompany(db)).id);

    expect(await eventOf(db, stranger, fixture.event.id)).toBeNull();
    expect(await eventNames(db, stranger, [fixture.event.id])).toEqual(new Map());
    expect(await sessionsByIds(db, stranger, [fixture.session.id, early.id])).toEqual(new Map());
    expect(await db.transaction((tx) => lockSessions(tx, stranger, [fixture.session.id]))).toEqual([]);
  });
});
