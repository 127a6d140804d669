import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import { randomToken } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays } from '../../platform/time.ts';
import { createBookableEvent, FUTURE_MONDAY } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import { createChild, createConfirmedParty } from '../../testing/waiver-fixtures.ts';
import { users } from '../accounts/accounts.tables.ts';
import { refunds } from '../billing/ledger.tables.ts';
import { children } from '../students/students.tables.ts';
import { bookingChildren, bookingPlaces, bookings, waitlistEntries } from './bookings.tables.ts';

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
    const response = await dispatch(fixture.event.id, 'cancel', [booking.id], { refund: 'refund' });
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

  /**
   * A booking as checkout leaves it, written straight to the tables so these staff tests do not
   * depend on the checkout path: its children, one place per child on each day, and a payment.
   */
  async function bookedFamily(
    fixture: Awaited<ReturnType<typeof createBookableEvent>>,
    options: { paid?: number; days?: string[]; kids?: string[] } = {},
  ) {
    const db = t.database.db;
    const tenant = new Tenant(company.id);
    const parent = await createUser(db, company.id, { role: 'student', fullName: 'First Parent' });
    const kids = await db
      .insert(children)
      .values(
        (options.kids ?? ['Ava']).map((first) =>
          tenant.values({ parentId: parent.id, firstName: first, lastName: 'Smith', dob: '2018-03-04' }),
        ),
      )
      .returning();
    const paid = options.paid ?? 0;
    const [booking] = await db
      .insert(bookings)
      .values(
        tenant.values({
          parentId: parent.id,
          eventId: fixture.event.id,
          reference: randomToken(12),
          code: `BK-${randomToken(6).toUpperCase()}`,
          status: 'confirmed' as const,
          quantity: kids.length,
          pricing: {},
          total: paid,
          provider: 'test' as const,
          confirmedAt: new Date(),
        }),
      )
      .returning();
    await db
      .insert(bookingChildren)
      .values(
        kids.map((k) =>
          tenant.values({ bookingId: booking!.id, childId: k.id, insuranceType: 'none' as const }),
        ),
      );
    await db.insert(bookingPlaces).values(
      (options.days ?? [FUTURE_MONDAY]).map((date) =>
        tenant.values({
          bookingId: booking!.id,
          sessionId: fixture.session.id,
          date,
          places: kids.length,
          unitPrice: 4500,
        }),
      ),
    );
    if (paid > 0) {
      await db.insert(payments).values(
        tenant.values({
          purchaseKind: 'event' as const,
          purchaseId: booking!.id,
          provider: 'test' as const,
          providerRef: randomToken(12),
          parentId: parent.id,
          amount: paid,
          status: 'paid' as const,
          paidAt: new Date(),
        }),
      );
    }
    return { booking: booking!, parent, kids };
  }

  const bookingRow = async (id: number) =>
    (await t.database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
  const paymentOf = async (bookingId: number) =>
    (
      await t.database.db
        .select()
        .from(payments)
        .where(and(eq(payments.purchaseKind, 'event'), eq(payments.purchaseId, bookingId)))
    )[0]!;

  it('cancelling a paid booking needs the refund choice, records it and mails the parent', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const { booking, parent } = await bookedFamily(fixture, { paid: 4500 });
    const meta = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/events/${fixture.event.id}/bookings/meta`,
        headers: staff,
      })
    ).json();
    // Two buttons that both said "Cancel" in the confirmation: the action and the way out differ.
    expect(meta.actions.find((a: { name: string }) => a.name === 'cancel')).toMatchObject({
      label: 'Cancel booking',
      dismiss: 'Keep booking',
      fields: [{ name: 'refund', type: 'select' }],
    });

    const unanswered = await dispatch(fixture.event.id, 'cancel', [booking.id]);
    expect(unanswered.statusCode).toBe(400);
    expect(unanswered.json().message).toBe('Please choose what happens to the money paid.');
    expect((await bookingRow(booking.id)).status).toBe('confirmed');

    const ok = await dispatch(fixture.event.id, 'cancel', [booking.id], { refund: 'credit' });
    expect(ok.json()).toEqual({
      success: true,
      message: '1 booking cancelled. Freed places were offered to the waitlist.',
    });
    const after = await bookingRow(booking.id);
    expect(after).toMatchObject({ status: 'cancelled', refundChoice: 'credit' });
    expect(after.cancelledAt).toBeInstanceOf(Date);
    // A credit keeps the money as the family's credit: the payment is refunded to it at once.
    expect((await paymentOf(booking.id)).status).toBe('refunded');
    const [credit] = await t.database.db.select().from(refunds).where(eq(refunds.parentId, parent.id));
    expect(credit).toMatchObject({ amount: 4500, destination: 'credit', status: 'succeeded' });
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, parent.email), eq(mailOutbox.kind, 'booking-cancelled')));
    expect(mail!.subject).toBe('Booking cancelled: Holiday Camp');
    expect(mail!.text).toContain(`Your booking ${booking.code} for Holiday Camp`);
    expect(mail!.text).toContain('The $45.00 you paid is kept as a credit for a future booking.');
  });

  it('a refund sends the payment back to the card; an unpaid booking needs no choice', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const paid = await bookedFamily(fixture, { paid: 4500 });
    expect(
      (await dispatch(fixture.event.id, 'cancel', [paid.booking.id], { refund: 'refund' })).json().success,
    ).toBe(true);
    expect(await bookingRow(paid.booking.id)).toMatchObject({ status: 'cancelled', refundChoice: 'refund' });
    // Recorded in the cancelling transaction, then sent to the provider (billing/refunds.service).
    const payment = await paymentOf(paid.booking.id);
    expect(payment).toMatchObject({ status: 'refunded', refunded: 4500 });
    const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(refund).toMatchObject({ amount: 4500, destination: 'card' });

    const free = await bookedFamily(fixture);
    expect((await dispatch(fixture.event.id, 'cancel', [free.booking.id])).json().success).toBe(true);
    expect(await bookingRow(free.booking.id)).toMatchObject({ status: 'cancelled', refundChoice: null });
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, free.parent.email), eq(mailOutbox.kind, 'booking-cancelled')));
    expect(mail!.text).toContain('Nothing was charged.');
  });

  it('change-parent moves only this booking: the first family keeps its children and other bookings', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const first = await bookedFamily(fixture, { kids: ['Ava', 'Ben'] });
    // The same children in another booking of the first family.
    const [other] = await t.database.db
      .insert(bookings)
      .values({ ...first.booking, id: undefined, reference: randomToken(12), code: 'BK-OTHER1' })
      .returning();
    await t.database.db
      .insert(bookingChildren)
      .values(first.kids.map((k) => ({ companyId: company.id, bookingId: other!.id, childId: k.id })));
    const newParent = await createUser(t.database.db, company.id, {
      role: 'student',
      fullName: 'New Parent',
    });
    // The new family already has an Ava Smith born the same day: she is used, not copied.
    const [theirAva] = await t.database.db
      .insert(children)
      .values({
        companyId: company.id,
        parentId: newParent.id,
        firstName: 'ava',
        lastName: 'smith',
        dob: '2018-03-04',
      })
      .returning();

    const ok = await dispatch(fixture.event.id, 'change-parent', [first.booking.id], {
      parent_id: newParent.id,
    });
    expect(ok.json()).toEqual({ success: true, message: 'The booking now belongs to New Parent.' });

    // The first family's children are still theirs, and still on their other booking.
    const firstKids = await t.database.db
      .select()
      .from(children)
      .where(eq(children.parentId, first.parent.id));
    expect(firstKids.map((k) => k.firstName).sort()).toEqual(['Ava', 'Ben']);
    const otherLinks = await t.database.db
      .select()
      .from(bookingChildren)
      .where(eq(bookingChildren.bookingId, other!.id));
    expect(otherLinks.map((l) => l.childId).sort()).toEqual(first.kids.map((k) => k.id).sort());
    // The moved booking is for the new family's own children.
    const moved = await t.database.db
      .select({ child: children })
      .from(bookingChildren)
      .innerJoin(children, eq(children.id, bookingChildren.childId))
      .where(eq(bookingChildren.bookingId, first.booking.id));
    expect(moved.every((m) => m.child.parentId === newParent.id)).toBe(true);
    expect(moved.map((m) => m.child.id)).toContain(theirAva!.id);
    expect(moved.map((m) => m.child.firstName).sort()).toEqual(['Ben', 'ava']);
    expect((await bookingRow(first.booking.id)).parentId).toBe(newParent.id);

    // Beside the engine's entry for the booking row, one says what moved.
    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, first.booking.id), eq(auditLog.action, 'change-parent')));
    const entry = entries.find((e) => e.summary.includes('children:'));
    expect(entry!.summary).toContain(
      `parent: First Parent (#${first.parent.id}) → New Parent (#${newParent.id})`,
    );
    const ben = first.kids.find((k) => k.firstName === 'Ben')!;
    expect(entry!.summary).toContain(`Ben Smith (#${ben.id} → #`);
    expect(entry!.summary).toContain(
      `Ava Smith (#${first.kids.find((k) => k.firstName === 'Ava')!.id} → #${theirAva!.id})`,
    );
  });

  it('a booking’s page lists its children and days; a parent’s page their children and bookings', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const tuesday = addDays(FUTURE_MONDAY, 1);
    const { booking, parent } = await bookedFamily(fixture, {
      kids: ['Ava', 'Ben'],
      days: [tuesday, FUTURE_MONDAY],
    });
    const get = (url: string, headers = staff) => t.app.inject({ method: 'GET', url, headers });

    const meta = (await get(`/api/v1/admin/events/${fixture.event.id}/bookings/meta`)).json();
    expect(meta.sections).toEqual([
      { name: 'children', label: 'Children' },
      { name: 'days', label: 'Days' },
    ]);
    const sections = (
      await get(`/api/v1/admin/events/${fixture.event.id}/bookings/${booking.id}/sections`)
    ).json();
    expect(sections.map((s: { name: string }) => s.name)).toEqual(['children', 'days']);
    expect(sections[0].rows).toEqual([
      { name: 'Ava Smith', dob: '04/03/2018', insurance: 'None' },
      { name: 'Ben Smith', dob: '04/03/2018', insurance: 'None' },
    ]);
    expect(sections[1].rows).toEqual([
      {
        date: FUTURE_MONDAY.split('-').reverse().join('/'),
        session: 'Morning',
        time: '09:00–12:00',
        places: 2,
      },
      { date: tuesday.split('-').reverse().join('/'), session: 'Morning', time: '09:00–12:00', places: 2 },
    ]);

    const family = (await get(`/api/v1/admin/parents/${parent.id}/sections`)).json();
    expect(family[0]).toMatchObject({
      name: 'children',
      rows: [{ name: 'Ava Smith' }, { name: 'Ben Smith' }],
    });
    expect(family[1]).toMatchObject({
      name: 'bookings',
      rows: [
        {
          code: booking.code,
          event: 'Holiday Camp',
          status: 'Confirmed',
          href: `/admin/events/${fixture.event.id}/bookings/${booking.id}`,
        },
      ],
    });

    // Another company's staff see none of it.
    const foreign = await createCompany(t.database.db);
    const outsider = (
      await sessionFor(t.database.db, await createUser(t.database.db, foreign.id, { role: 'companyadmin' }))
    ).headers;
    expect((await get(`/api/v1/admin/parents/${parent.id}/sections`, outsider)).statusCode).toBe(404);
    expect(
      (await get(`/api/v1/admin/events/${fixture.event.id}/bookings/${booking.id}/sections`, outsider))
        .statusCode,
    ).toBe(404);
  });

  it('party cancel (the party bookings resource) cancels only live parties, through its service', async () => {
    const setup = await createPartySetup(t.database.db, company.id);
    const parent = await createUser(t.database.db, company.id, { role: 'student' });
    const child = await createChild(t.database.db, company.id, parent.id);
    const date = addDays(FUTURE_MONDAY, 3);
    const { party } = await createConfirmedParty(t.database.db, company.id, {
      parentId: parent.id,
      slotId: setup.morning.id,
      childId: child.id,
      date,
    });
    const cancel = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/party-bookings/dispatch/cancel',
        headers: staff,
        payload: { ids: [party.id], values: {} },
      });
    expect((await cancel()).json()).toEqual({
      success: true,
      message: '1 party cancelled. The slots are free again.',
    });
    const again = await cancel();
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Only confirmed or unpaid parties can be cancelled.');
  });
});
