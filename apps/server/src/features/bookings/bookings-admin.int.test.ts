import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../platform/time.ts';
import { createBookableEvent, FUTURE_MONDAY } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { users } from '../accounts/accounts.tables.ts';
import { bookingPlaces, bookings, waitlistEntries } from './bookings.tables.ts';

/** Staff actions on bookings change places under the same rules as checkout. */
describe('event bookings in the admin area', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let staff: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test' });
    staff = (
      await sessionFor(t.database.db, await createUser(t.database.db, company.id, { role: 'companystaff' }))
    ).headers;
  });
  afterAll(() => t.close());

  async function paidBooking(fixture: Awaited<ReturnType<typeof createBookableEvent>>, date = FUTURE_MONDAY) {
    const parent = await createUser(t.database.db, company.id, { role: 'student' });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/booking/checkout?authhash=${company.authhash}`,
      headers: (await sessionFor(t.database.db, parent)).headers,
      payload: {
        event_id: fixture.event.id,
        quantity: 1,
        booked: [fixture.cell(date)],
        children: [{ first_name: 'A', last_name: 'B', dob: '2018-01-01', insurance_type: 'daily_insurance' }],
        amount: 4800,
        accept_terms: true,
      },
    });
    const body = response.json();
    await t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session: body.sessionId, card_number: '4242424242424242' },
    });
    const [booking] = await t.database.db
      .select()
      .from(bookings)
      .where(eq(bookings.reference, body.booking_hash));
    return { booking: booking!, parent };
  }

  const dispatch = (eventId: number, action: string, ids: number[], values: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/events/${eventId}/bookings/dispatch/${action}`,
      headers: staff,
      payload: { ids, values },
    });

  it('lists an event’s bookings with the parent’s name', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const { parent } = await paidBooking(fixture);
    const list = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/events/${fixture.event.id}/bookings`,
        headers: staff,
      })
    ).json();
    expect(list.total).toBe(1);
    expect(list.data[0]).toMatchObject({
      status: 'confirmed',
      total: 4800,
      _labels: { parent_id: parent.fullName },
    });
  });

  it('shows staff the availability calendar with booked, held, waiting and capacity', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 3 });
    await paidBooking(fixture);
    const waiter = await createUser(t.database.db, company.id, { role: 'student' });
    await t.database.db.insert(waitlistEntries).values({
      companyId: company.id,
      parentId: waiter.id,
      eventId: fixture.event.id,
      sessionId: fixture.session.id,
      date: FUTURE_MONDAY,
      places: 2,
    });
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/events/${fixture.event.id}/availability`,
      headers: staff,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.sessions).toEqual([
      { id: fixture.session.id, name: 'Morning', start_time: '09:00', end_time: '12:00', capacity: 3 },
    ]);
    expect(body.cells).toHaveLength(5);
    expect(body.cells[0]).toEqual({
      session_id: fixture.session.id,
      date: FUTURE_MONDAY,
      status: 'bookable',
      capacity: 3,
      booked: 1,
      held: 0,
      invited: 0,
      waiting: 2,
    });
    const foreign = await createCompany(t.database.db);
    const outsider = (
      await sessionFor(t.database.db, await createUser(t.database.db, foreign.id, { role: 'companyadmin' }))
    ).headers;
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/admin/events/${fixture.event.id}/availability`,
          headers: outsider,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('offers only the parents of the company, and only this event’s sessions, as choices', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const otherEvent = await createBookableEvent(t.database.db, company.id);
    const sessions = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/events/${fixture.event.id}/sessions/options`,
        headers: staff,
      })
    ).json();
    expect(sessions.map((o: { value: number }) => o.value)).toEqual([fixture.session.id]);
    expect(sessions.map((o: { value: number }) => o.value)).not.toContain(otherEvent.session.id);
    const parents = (
      await t.app.inject({ method: 'GET', url: '/api/v1/admin/parents/options', headers: staff })
    ).json();
    const [staffUser] = await t.database.db.select().from(users).where(eq(users.companyId, company.id));
    expect(parents.length).toBeGreaterThan(0);
    expect(parents.map((o: { value: number }) => o.value)).not.toContain(staffUser!.id);
  });

  it('payment methods: one default, which checkout uses', async () => {
    // A company of its own: the other tests here pay with the test provider.
    const shop = await createCompany(t.database.db, { paymentMethod: 'test' });
    const admin = (
      await sessionFor(t.database.db, await createUser(t.database.db, shop.id, { role: 'companyadmin' }))
    ).headers;
    const add = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/v1/admin/payment-methods', headers: admin, payload });
    expect(
      (await add({ provider: 'test', label: 'Test', enabled: true, is_default: true })).json().valid,
    ).toBe(true);
    expect(
      (await add({ provider: 'stripe', label: 'Card', enabled: false, is_default: true })).json(),
    ).toMatchObject({
      valid: false,
      error: { element: [{ name: 'is_default', messages: ['The default method must be enabled.'] }] },
    });
    expect(
      (await add({ provider: 'stripe', label: 'Card', enabled: true, is_default: true })).json().valid,
    ).toBe(true);
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/v1/admin/payment-methods', headers: admin })
    ).json();
    expect(
      list.data
        .filter((m: { is_default: boolean }) => m.is_default)
        .map((m: { provider: string }) => m.provider),
    ).toEqual(['stripe']);
    // Stripe is not configured in this test app: checkout says so instead of using the old test method.
    const fixture = await createBookableEvent(t.database.db, shop.id);
    const parent = await createUser(t.database.db, shop.id, { role: 'student' });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/booking/checkout?authhash=${shop.authhash}`,
      headers: (await sessionFor(t.database.db, parent)).headers,
      payload: {
        event_id: fixture.event.id,
        quantity: 1,
        booked: [fixture.cell()],
        children: [{ first_name: 'A', last_name: 'B', dob: '2018-01-01', insurance_type: 'daily_insurance' }],
        amount: 4800,
        accept_terms: true,
      },
    });
    expect(response.statusCode).toBe(503);
  });

  it('cancel frees the place and offers it to the first on the waitlist', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 1 });
    const { booking } = await paidBooking(fixture);
    const waiter = await createUser(t.database.db, company.id, { role: 'student' });
    await t.database.db.insert(waitlistEntries).values({
      companyId: company.id,
      parentId: waiter.id,
      eventId: fixture.event.id,
      sessionId: fixture.session.id,
      date: FUTURE_MONDAY,
      places: 1,
    });
    const response = await dispatch(fixture.event.id, 'cancel', [booking.id]);
    expect(response.json(), response.body).toEqual({
      success: true,
      message: '1 booking cancelled. Freed places were offered to the waitlist.',
    });
    const [entry] = await t.database.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.parentId, waiter.id));
    expect(entry!.status).toBe('invited');
  });

  it('swap-session moves a place only when the target day has room', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 1 });
    const { booking } = await paidBooking(fixture);
    const tuesday = addDays(FUTURE_MONDAY, 1);
    await paidBooking(fixture, tuesday);
    const values = (to: string) => ({
      from_session_id: fixture.session.id,
      from_date: FUTURE_MONDAY,
      to_session_id: fixture.session.id,
      to_date: to,
    });
    const full = await dispatch(fixture.event.id, 'swap-session', [booking.id], values(tuesday));
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe('Morning is full on that day.');
    const saturday = addDays(FUTURE_MONDAY, 5);
    expect(
      (await dispatch(fixture.event.id, 'swap-session', [booking.id], values(saturday))).json().message,
    ).toBe('That session does not run on that day.');
    const wednesday = addDays(FUTURE_MONDAY, 2);
    const ok = await dispatch(fixture.event.id, 'swap-session', [booking.id], values(wednesday));
    expect(ok.json().success).toBe(true);
    const places = await t.database.db
      .select()
      .from(bookingPlaces)
      .where(eq(bookingPlaces.bookingId, booking.id));
    expect(places.map((p) => p.date)).toEqual([wednesday]);
    const missing = await dispatch(fixture.event.id, 'swap-session', [booking.id], {
      from_session_id: fixture.session.id,
    });
    expect(missing.statusCode).toBe(400);
  });

  it('change-parent moves the booking to another parent of the company only', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const { booking } = await paidBooking(fixture);
    const other = await createCompany(t.database.db);
    const foreignParent = await createUser(t.database.db, other.id, { role: 'student' });
    const refused = await dispatch(fixture.event.id, 'change-parent', [booking.id], {
      parent_id: foreignParent.id,
    });
    expect(refused.statusCode).toBe(400);
    const newParent = await createUser(t.database.db, company.id, {
      role: 'student',
      fullName: 'New Parent',
    });
    const ok = await dispatch(fixture.event.id, 'change-parent', [booking.id], { parent_id: newParent.id });
    expect(ok.json()).toEqual({ success: true, message: 'The booking now belongs to New Parent.' });
    const [after] = await t.database.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(after!.parentId).toBe(newParent.id);
  });
});
