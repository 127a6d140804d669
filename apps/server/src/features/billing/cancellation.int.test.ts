import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../platform/payments/payments.tables.ts';
import { randomToken } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays } from '../../platform/time.ts';
import { createBookableEvent, FUTURE_MONDAY } from '../../testing/booking-fixtures.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { type CompanyRow, createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import { createChild } from '../../testing/waiver-fixtures.ts';
import { bookingChildren, bookingPlaces, bookings } from '../bookings/bookings.tables.ts';
import { enrolmentAdjustments } from '../classes/adjustments.tables.ts';
import { classEnrolments } from '../classes/classes.tables.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from '../classes/enrolments.tables.ts';
import { partyBookings } from '../parties/parties.tables.ts';
import { cancellationPolicies } from './cancellation.tables.ts';
import { familyAccounts, refunds } from './ledger.tables.ts';

/**
 * Self-service cancellation (issue 15): the parent sees what the company's policy gives back, then
 * cancels; the money comes back as the preview said, from the purchase's own payments.
 */
describe('a parent cancels from their account', () => {
  let t: TestContext;
  let company: CompanyRow;
  let tenant: Tenant;
  let parent: { id: number; headers: Record<string, string> };
  let stranger: { id: number; headers: Record<string, string> };

  const policy = (
    appliesTo: 'events' | 'parties' | 'classes',
    values: Partial<typeof cancellationPolicies.$inferInsert>,
  ) =>
    t.database.db
      .insert(cancellationPolicies)
      .values(tenant.values({ appliesTo, ...values }))
      .onConflictDoUpdate({
        target: [cancellationPolicies.companyId, cancellationPolicies.appliesTo],
        set: {
          noticeHours: values.noticeHours ?? 48,
          percentBack: values.percentBack ?? 100,
          destination: values.destination ?? 'credit',
        },
      });
  const preview = (headers: Record<string, string>, query: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1/students/cancellations/preview?${query}`, headers });
  const cancel = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/v1/students/cancellations', headers, payload });
  const creditOf = async (parentId: number) => {
    const [account] = await t.database.db
      .select()
      .from(familyAccounts)
      .where(and(eq(familyAccounts.companyId, company.id), eq(familyAccounts.parentId, parentId)));
    return account?.creditBalance ?? 0;
  };
  const paid = async (purchaseKind: 'event' | 'party' | 'enrolment', purchaseId: number, amount: number) => {
    const [row] = await t.database.db
      .insert(payments)
      .values(
        tenant.values({
          purchaseKind,
          purchaseId,
          parentId: parent.id,
          provider: 'test' as const,
          providerRef: `test_${randomToken(8)}`,
          amount,
          status: 'paid' as const,
          paidAt: new Date(),
        }),
      )
      .returning();
    return row!;
  };

  /** A confirmed, paid booking of two days of the event for one child ($45 a day, $81 paid after 10% off). */
  async function bookedTwoDays() {
    const { db } = t.database;
    const { event, session } = await createBookableEvent(db, company.id);
    const child = await createChild(db, company.id, parent.id);
    const [booking] = await db
      .insert(bookings)
      .values(
        tenant.values({
          parentId: parent.id,
          eventId: event.id,
          reference: randomToken(12),
          code: `BK-${randomToken(4).slice(0, 5).toUpperCase()}`,
          status: 'confirmed' as const,
          quantity: 2,
          pricing: { total: 8100 },
          total: 8100,
          provider: 'test' as const,
        }),
      )
      .returning();
    await db.insert(bookingChildren).values(tenant.values({ bookingId: booking!.id, childId: child.id }));
    const days = [FUTURE_MONDAY, addDays(FUTURE_MONDAY, 1)];
    await db
      .insert(bookingPlaces)
      .values(
        days.map((date) =>
          tenant.values({ bookingId: booking!.id, sessionId: session.id, date, places: 1, unitPrice: 4500 }),
        ),
      );
    const payment = await paid('event', booking!.id, 8100);
    const day = (date: string) =>
      `kind=event_day&booking_id=${booking!.id}&session_id=${session.id}&date=${date}`;
    const body = (date: string) => ({
      kind: 'event_day',
      booking_id: booking!.id,
      session_id: session.id,
      date,
    });
    return { booking: booking!, payment, days, day, body };
  }

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    company = await createCompany(db);
    tenant = new Tenant(company.id);
    const user = await createUser(db, company.id, { role: 'student' });
    parent = { id: user.id, ...(await sessionFor(db, user)) };
    const other = await createUser(db, company.id, { role: 'student' });
    stranger = { id: other.id, ...(await sessionFor(db, other)) };
  });
  afterAll(() => t.close());

  it('without a policy nothing can be cancelled online, and nothing changes', async () => {
    const { booking, days, day, body } = await bookedTwoDays();
    const seen = await preview(parent.headers, day(days[0]!));
    expect(seen.json()).toMatchObject({
      allowed: false,
      message: 'Please contact us to cancel: this cannot be cancelled online.',
    });
    const refused = await cancel(parent.headers, body(days[0]!));
    expect(refused.statusCode).toBe(400);
    const places = await t.database.db
      .select()
      .from(bookingPlaces)
      .where(eq(bookingPlaces.bookingId, booking.id));
    expect(places).toHaveLength(2);
  });

  it('an event day: its share of what was paid comes back as credit; the last day cancels the booking', async () => {
    await policy('events', { noticeHours: 48, percentBack: 100, destination: 'credit' });
    const { booking, payment, days, day, body } = await bookedTwoDays();
    const before = await creditOf(parent.id);
    const seen = (await preview(parent.headers, day(days[0]!))).json();
    expect(seen).toMatchObject({ allowed: true, paid: 4050, back: 4050, outcome: 'credit' });
    expect(seen.message).toBe(
      '$40.50 will be kept as credit on your account, for a future booking or invoice.',
    );
    const done = await cancel(parent.headers, body(days[0]!));
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toContain('Holiday Camp, Morning');
    expect(await creditOf(parent.id)).toBe(before + 4050);
    // The second (last) day: what is left of the payment, and the booking is cancelled.
    expect((await preview(parent.headers, day(days[1]!))).json()).toMatchObject({ back: 4050 });
    expect((await cancel(parent.headers, body(days[1]!))).statusCode).toBe(200);
    const [after] = await t.database.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(after!.status).toBe('cancelled');
    const back = await t.database.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(back.reduce((sum, r) => sum + r.amount, 0)).toBe(8100);
    // Cancelling it again finds nothing to cancel.
    expect((await cancel(parent.headers, body(days[1]!))).statusCode).toBe(404);
  });

  it('too late gives nothing back, and another family cannot see or cancel the booking', async () => {
    await policy('events', { noticeHours: 24 * 365 * 5, percentBack: 100, destination: 'credit' });
    const { days, day, body } = await bookedTwoDays();
    const seen = (await preview(parent.headers, day(days[0]!))).json();
    expect(seen).toMatchObject({ allowed: true, back: 0, outcome: 'nothing' });
    expect(seen.message).toBe('This is less than 43800 hours before it starts, so nothing is refunded.');
    expect((await preview(stranger.headers, day(days[0]!))).statusCode).toBe(404);
    expect((await cancel(stranger.headers, body(days[0]!))).statusCode).toBe(404);
    const before = await creditOf(parent.id);
    expect((await cancel(parent.headers, body(days[0]!))).statusCode).toBe(200);
    expect(await creditOf(parent.id)).toBe(before);
  });

  it('a party: half the deposit as credit, and the slot is free again', async () => {
    await policy('parties', { noticeHours: 24, percentBack: 50, destination: 'credit' });
    const { db } = t.database;
    const { morning } = await createPartySetup(db, company.id);
    const child = await createChild(db, company.id, parent.id);
    const [party] = await db
      .insert(partyBookings)
      .values(
        tenant.values({
          parentId: parent.id,
          slotId: morning.id,
          date: addDays(FUTURE_MONDAY, 7),
          childId: child.id,
          reference: randomToken(12),
          code: 'BP-CANC1',
          status: 'confirmed' as const,
          guests: 10,
          pricing: {},
          total: 39500,
          deposit: 10000,
          balance: 29500,
          provider: 'test' as const,
        }),
      )
      .returning();
    await paid('party', party!.id, 10000);
    const before = await creditOf(parent.id);
    const seen = (await preview(parent.headers, `kind=party&party_booking_id=${party!.id}`)).json();
    expect(seen).toMatchObject({ allowed: true, paid: 10000, back: 5000, outcome: 'credit' });
    expect((await cancel(parent.headers, { kind: 'party', party_booking_id: party!.id })).statusCode).toBe(
      200,
    );
    const [after] = await db.select().from(partyBookings).where(eq(partyBookings.id, party!.id));
    expect(after!.status).toBe('cancelled');
    expect(await creditOf(parent.id)).toBe(before + 5000);
  });

  it('a class paid at checkout: the sessions beyond the notice come back; one billed on an invoice leaves a credit for the office', async () => {
    await policy('classes', { noticeHours: 0, percentBack: 100, destination: 'credit' });
    const { db } = t.database;
    const dates = [0, 7, 14, 21].map((d) => addDays(FUTURE_MONDAY, d + 1));
    const { termClass, type } = await createClassWithSessions(db, company.id, { coachId: null, dates });
    const { classTypes } = await import('../classes/classes.tables.ts');
    await db.update(classTypes).set({ price: 2000 }).where(eq(classTypes.id, type.id));
    const enrol = async () => {
      const child = await createChild(db, company.id, parent.id);
      const [place] = await db
        .insert(classEnrolments)
        .values(
          tenant.values({
            termClassId: termClass.id,
            childId: child.id,
            kind: 'enrolled' as const,
            status: 'active' as const,
            startsOn: dates[0]!,
          }),
        )
        .returning();
      return place!;
    };
    const paidPlace = await enrol();
    const [purchase] = await db
      .insert(enrolmentPurchases)
      .values(
        tenant.values({
          parentId: parent.id,
          reference: randomToken(12),
          code: 'EN-CANC1',
          status: 'confirmed' as const,
          pricing: { total: 8000 },
          total: 8000,
        }),
      )
      .returning();
    await db
      .insert(enrolmentPurchaseItems)
      .values(tenant.values({ purchaseId: purchase!.id, enrolmentId: paidPlace.id, amount: 8000 }));
    await paid('enrolment', purchase!.id, 8000);
    const before = await creditOf(parent.id);
    const seen = (await preview(parent.headers, `kind=enrolment&enrolment_id=${paidPlace.id}`)).json();
    expect(seen).toMatchObject({ allowed: true, paid: 8000, back: 8000, outcome: 'credit' });
    expect((await cancel(parent.headers, { kind: 'enrolment', enrolment_id: paidPlace.id })).statusCode).toBe(
      200,
    );
    const [ended] = await db.select().from(classEnrolments).where(eq(classEnrolments.id, paidPlace.id));
    expect(ended!.withdrawnFrom).toBe(dates[0]);
    expect(await creditOf(parent.id)).toBe(before + 8000);

    const invoicedPlace = await enrol();
    const invoiced = (
      await preview(parent.headers, `kind=enrolment&enrolment_id=${invoicedPlace.id}`)
    ).json();
    expect(invoiced.message).toBe(
      '$80.00 for the sessions not run will be credited to your invoice by our office.',
    );
    expect(
      (await cancel(parent.headers, { kind: 'enrolment', enrolment_id: invoicedPlace.id })).statusCode,
    ).toBe(200);
    const adjustments = await db
      .select()
      .from(enrolmentAdjustments)
      .where(eq(enrolmentAdjustments.enrolmentId, invoicedPlace.id));
    expect(adjustments).toMatchObject([{ kind: 'credit', amount: 8000 }]);
    expect(await creditOf(parent.id)).toBe(before + 8000);
  });
});
