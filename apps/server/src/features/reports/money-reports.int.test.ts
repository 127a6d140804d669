import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import { createChild } from '../../testing/waiver-fixtures.ts';
import { couponRedemptions, coupons, insurances, promotionalCodes } from '../billing/billing.tables.ts';
import { bookingChildren, bookingPlaces, bookings, waitlistEntries } from '../bookings/bookings.tables.ts';
import { classEnrolments } from '../classes/classes.tables.ts';
import { enrolmentVouchers } from '../classes/enrolment-vouchers.tables.ts';
import { enrolmentPurchases } from '../classes/enrolments.tables.ts';
import { eventSessions, events } from '../events/events.tables.ts';
import { partyBookings } from '../parties/parties.tables.ts';

let sequence = 0;
const ref = (prefix: string) => `${prefix}-${Date.now().toString(36)}${(++sequence).toString(36)}`;

type Cover = 'daily_insurance' | 'full_insurance' | 'none';

/** An event of fixed dates with one morning session (capacity 10). */
async function createEvent(db: Db, tenant: Tenant, name: string, startDate: string, endDate: string) {
  const [event] = await db.insert(events).values(tenant.values({ name, startDate, endDate })).returning();
  const [session] = await db
    .insert(eventSessions)
    .values(
      tenant.values({
        eventId: event!.id,
        name: 'Morning',
        startDate,
        endDate,
        startTime: '09:00',
        endTime: '12:00',
        capacity: 10,
      }),
    )
    .returning();
  return { event: event!, session: session! };
}

/** A booking as checkout leaves it: children with their cover, a place per child on each day. */
async function createBooking(
  db: Db,
  tenant: Tenant,
  input: {
    parentId: number;
    eventId: number;
    sessionId: number;
    status?: 'confirmed' | 'pending';
    children: { id: number; cover: Cover; insuranceIds?: number[] }[];
    days: string[];
    pricing: Record<string, number>;
    redemption?: { couponId?: number; promotionalCodeId?: number; voucherCode?: string; at: string };
  },
) {
  const [booking] = await db
    .insert(bookings)
    .values(
      tenant.values({
        parentId: input.parentId,
        eventId: input.eventId,
        reference: ref('r'),
        code: ref('BK'),
        status: input.status ?? 'confirmed',
        quantity: input.children.length,
        pricing: input.pricing,
        total: input.pricing.total!,
        provider: 'test' as const,
      }),
    )
    .returning();
  await db.insert(bookingChildren).values(
    input.children.map((c) =>
      tenant.values({
        bookingId: booking!.id,
        childId: c.id,
        insuranceType: c.cover,
        insuranceIds: c.insuranceIds ?? [],
      }),
    ),
  );
  await db.insert(bookingPlaces).values(
    input.days.map((date) =>
      tenant.values({
        bookingId: booking!.id,
        sessionId: input.sessionId,
        date,
        places: input.children.length,
        unitPrice: 4500,
      }),
    ),
  );
  if (input.redemption) await redeem(db, tenant, input.parentId, 'event', booking!.id, input.redemption);
  return booking!;
}

async function redeem(
  db: Db,
  tenant: Tenant,
  parentId: number,
  purchaseKind: 'event' | 'party' | 'enrolment',
  purchaseId: number,
  r: { couponId?: number; promotionalCodeId?: number; voucherCode?: string; at: string },
) {
  await db.insert(couponRedemptions).values(
    tenant.values({
      couponId: r.couponId ?? null,
      promotionalCodeId: r.promotionalCodeId ?? null,
      voucherCode: r.voucherCode ?? null,
      parentId,
      purchaseKind,
      purchaseId,
      createdAt: new Date(r.at),
    }),
  );
}

/**
 * The insurance, coupon-code-usages, vouchers and events reports on fixture data whose figures are
 * worked out by hand below (the company is in Australia/Sydney, UTC+10/+11).
 */
describe('reports: insurance, coupon code usages, vouchers and events', () => {
  let t: TestContext;
  let adminA: Record<string, string>;
  let adminB: Record<string, string>;
  const codes = { avaBen: '', party: '', summer: 0, campB: 0 };
  const get = async (headers: Record<string, string>, path: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/admin/reports/${path}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const a = (await createCompany(db)).id;
    const b = (await createCompany(db)).id;
    const password = 'a long enough password';
    adminA = (await signIn(t.app, await createUser(db, a, { role: 'companyadmin', password }))).headers;
    adminB = (await signIn(t.app, await createUser(db, b, { role: 'companyadmin', password }))).headers;
    const tenant = new Tenant(a);
    const parent = await createUser(db, a, { role: 'student' });
    const [ava, ben, cal, dan, eve] = [
      await createChild(db, a, parent.id, 'Ava'),
      await createChild(db, a, parent.id, 'Ben'),
      await createChild(db, a, parent.id, 'Cal'),
      await createChild(db, a, parent.id, 'Dan'),
      await createChild(db, a, parent.id, 'Eve'),
    ];
    const [daily] = await db
      .insert(insurances)
      .values(tenant.values({ name: 'Daily cover', kind: 'daily' as const, price: 300 }))
      .returning();
    const [full] = await db
      .insert(insurances)
      .values(tenant.values({ name: 'Season cover', kind: 'full' as const, price: 2500 }))
      .returning();
    const [save10] = await db
      .insert(coupons)
      .values(tenant.values({ code: 'SAVE10', discountType: 'percent' as const, percentOff: 10 }))
      .returning();
    const [spring] = await db
      .insert(promotionalCodes)
      .values(tenant.values({ code: 'SPRING', discountType: 'fixed' as const, amountOff: 500 }))
      .returning();
    const autumn = await createEvent(db, tenant, 'Autumn Camp', '2031-04-14', '2031-04-18');
    const summer = await createEvent(db, tenant, 'Summer Camp', '2032-01-12', '2032-01-16');
    codes.summer = summer.event.id;
    const inAutumn = { parentId: parent.id, eventId: autumn.event.id, sessionId: autumn.session.id };

    // Ava (daily cover) and Ben (full cover) on Mon 14 and Tue 15 April with SAVE10 and an NSW
    // voucher: 4 × $45 = $180, less $18 and $50, plus $31 of insurance = $143.
    codes.avaBen = (
      await createBooking(db, tenant, {
        ...inAutumn,
        children: [
          { id: ava.id, cover: 'daily_insurance', insuranceIds: [daily!.id] },
          { id: ben.id, cover: 'full_insurance', insuranceIds: [full!.id] },
        ],
        days: ['2031-04-14', '2031-04-15'],
        pricing: { subtotal: 18000, insurance: 3100, coupon: -1800, nsw_voucher: -5000, total: 14300 },
        redemption: { couponId: save10!.id, voucherCode: 'AK111111', at: '2031-04-01T00:00:00Z' },
      })
    ).code;
    // Cal without cover on Wed 16 April with SPRING: $45 − $5 = $40.
    await createBooking(db, tenant, {
      ...inAutumn,
      children: [{ id: cal.id, cover: 'none' }],
      days: ['2031-04-16'],
      pricing: { subtotal: 4500, coupon: -500, total: 4000 },
      redemption: { promotionalCodeId: spring!.id, at: '2031-04-02T00:00:00Z' },
    });
    // Dan's booking is still pending (unpaid): it counts nowhere.
    await createBooking(db, tenant, {
      ...inAutumn,
      status: 'pending',
      children: [{ id: dan.id, cover: 'daily_insurance', insuranceIds: [daily!.id] }],
      days: ['2031-04-17'],
      pricing: { subtotal: 4500, coupon: -450, total: 4050 },
      redemption: { couponId: save10!.id, at: '2031-04-03T00:00:00Z' },
    });
    // Eve in January 2032, with SAVE10 used at 1 am on 1 January 2032 in Sydney (still 2031 in UTC).
    await createBooking(db, tenant, {
      parentId: parent.id,
      eventId: summer.event.id,
      sessionId: summer.session.id,
      children: [{ id: eve.id, cover: 'none' }],
      days: ['2032-01-12'],
      pricing: { subtotal: 4500, coupon: -450, total: 4050 },
      redemption: { couponId: save10!.id, at: '2031-12-31T14:00:00Z' },
    });
    // Two families wait for Thursday 17 April (3 places); one declined offer does not count.
    for (const [places, status] of [
      [2, 'waiting'],
      [1, 'invited'],
      [4, 'declined'],
    ] as const)
      await db.insert(waitlistEntries).values(
        tenant.values({
          parentId: parent.id,
          eventId: autumn.event.id,
          sessionId: autumn.session.id,
          date: '2031-04-17',
          places,
          status,
        }),
      );

    // Ava's party with SPRING and an NSW voucher: $395 − $5 − $50 = $340.
    const { morning } = await createPartySetup(db, a);
    const [party] = await db
      .insert(partyBookings)
      .values(
        tenant.values({
          parentId: parent.id,
          slotId: morning.id,
          date: '2031-05-10',
          childId: ava.id,
          reference: ref('p'),
          code: ref('BP'),
          status: 'confirmed' as const,
          guests: 10,
          pricing: { coupon: -500, nsw_voucher: -5000, total: 34000 },
          total: 34000,
          deposit: 10000,
          balance: 24000,
          provider: 'test' as const,
        }),
      )
      .returning();
    codes.party = party!.code;
    await redeem(db, tenant, parent.id, 'party', party!.id, {
      promotionalCodeId: spring!.id,
      voucherCode: 'CK777777',
      at: '2031-05-01T02:00:00Z',
    });

    // Dan starts a class on 3 June 2031, paid with SAVE10 ($200 off) and an NSW voucher ($50).
    const { termClass } = await createClassWithSessions(db, a, { coachId: null, dates: ['2031-06-03'] });
    const [enrolment] = await db
      .insert(classEnrolments)
      .values(
        tenant.values({
          termClassId: termClass.id,
          childId: dan.id,
          kind: 'enrolled' as const,
          startsOn: '2031-06-03',
          status: 'active' as const,
        }),
      )
      .returning();
    const [purchase] = await db
      .insert(enrolmentPurchases)
      .values(
        tenant.values({
          parentId: parent.id,
          reference: ref('e'),
          code: 'EN-DAN01',
          status: 'confirmed' as const,
          pricing: { subtotal: 20000, coupon: -2000, nsw_voucher: -5000, total: 13000 },
          total: 13000,
        }),
      )
      .returning();
    expect(enrolment).toBeDefined();
    await db.insert(enrolmentVouchers).values(
      tenant.values({
        childId: dan.id,
        period: '2031-H1',
        code: 'AK123456',
        purchaseId: purchase!.id,
        createdAt: new Date('2031-06-01T00:00:00Z'),
      }),
    );
    await redeem(db, tenant, parent.id, 'enrolment', purchase!.id, {
      couponId: save10!.id,
      voucherCode: 'AK123456',
      at: '2031-06-01T00:00:00Z',
    });

    // Company B: its own covered booking and coupon use in the same period, never in A's reports
    // nor the other way round.
    const tenantB = new Tenant(b);
    const parentB = await createUser(db, b, { role: 'student' });
    const zoe = await createChild(db, b, parentB.id, 'Zoe');
    const [couponB] = await db
      .insert(coupons)
      .values(tenantB.values({ code: 'BONLY', discountType: 'percent' as const, percentOff: 10 }))
      .returning();
    const campB = await createEvent(db, tenantB, 'B Camp', '2031-04-14', '2031-04-18');
    codes.campB = campB.event.id;
    await createBooking(db, tenantB, {
      parentId: parentB.id,
      eventId: campB.event.id,
      sessionId: campB.session.id,
      children: [{ id: zoe.id, cover: 'none' }],
      days: ['2031-04-14'],
      pricing: { subtotal: 4500, coupon: -450, total: 4050 },
      redemption: { couponId: couponB!.id, at: '2031-04-01T00:00:00Z' },
    });
  });
  afterAll(() => t.close());

  const year2031 = 'from=2031-01-01&to=2031-12-31';

  describe('insurance', () => {
    it('lists who is covered by which product for which days, who is not, and the new participants', async () => {
      const data = await get(adminA, `insurance?${year2031}`);
      expect(data.summary).toEqual([
        { cover: 'Daily insurance', children: 1, bookings: 1, days: 2 },
        { cover: 'Full insurance', children: 1, bookings: 1, days: 2 },
        { cover: 'No cover', children: 1, bookings: 1, days: 1 },
      ]);
      expect(data.covered).toEqual([
        {
          child: 'Ava Tester',
          event: 'Autumn Camp',
          cover: 'Daily insurance',
          products: 'Daily cover',
          from: '2031-04-14',
          to: '2031-04-15',
          days: 2,
        },
        {
          child: 'Ben Tester',
          event: 'Autumn Camp',
          cover: 'Full insurance',
          products: 'Season cover',
          from: '2031-04-14',
          to: '2031-04-15',
          days: 2,
        },
      ]);
      expect(data.uncovered).toEqual([
        { child: 'Cal Tester', event: 'Autumn Camp', from: '2031-04-16', to: '2031-04-16', days: 1 },
      ]);
      // Dan's pending booking does not start him; his class on 3 June does (30 days: 3 July).
      expect(data.newParticipants).toEqual([
        {
          child: 'Ava Tester',
          started: '2031-04-14',
          started_with: 'Event',
          register_by: '2031-05-14',
          cover: 'Yes',
        },
        {
          child: 'Ben Tester',
          started: '2031-04-14',
          started_with: 'Event',
          register_by: '2031-05-14',
          cover: 'Yes',
        },
        {
          child: 'Cal Tester',
          started: '2031-04-16',
          started_with: 'Event',
          register_by: '2031-05-16',
          cover: 'No',
        },
        {
          child: 'Dan Tester',
          started: '2031-06-03',
          started_with: 'Class',
          register_by: '2031-07-03',
          cover: 'No',
        },
      ]);
    });

    it('keeps to the period: a day inside a booking keeps it, a later period has Eve only', async () => {
      const day = await get(adminA, 'insurance?from=2031-04-15&to=2031-04-15');
      expect(day.covered.map((r: { child: string }) => r.child)).toEqual(['Ava Tester', 'Ben Tester']);
      expect(day.uncovered).toEqual([]);
      expect(day.newParticipants).toEqual([]);
      const next = await get(adminA, 'insurance?from=2032-01-01&to=2032-12-31');
      expect(next.summary).toEqual([{ cover: 'No cover', children: 1, bookings: 1, days: 1 }]);
      expect(next.newParticipants.map((r: { child: string }) => r.child)).toEqual(['Eve Tester']);
    });

    it('shows another company none of these children', async () => {
      const data = await get(adminB, `insurance?${year2031}`);
      expect(data.covered).toEqual([]);
      expect(data.uncovered.map((r: { child: string }) => r.child)).toEqual(['Zoe Tester']);
      expect(data.newParticipants.map((r: { child: string }) => r.child)).toEqual(['Zoe Tester']);
    });
  });

  describe('coupon code usages', () => {
    it('counts each code’s uses, discount and revenue on paid purchases of the period, by kind', async () => {
      const data = await get(adminA, `coupon-code-usages?${year2031}`);
      // SAVE10: Ava and Ben's booking ($18 off, $143) and Dan's class ($20 off, $130); the pending
      // booking and Eve's (1 January 2032 in Sydney) are not in 2031. SPRING: Cal's booking ($40) and the party ($340).
      expect(data.codes).toEqual([
        { code: 'SAVE10', type: 'Coupon', uses: 2, discount: 3800, revenue: 27300 },
        { code: 'SPRING', type: 'Promotional code', uses: 2, discount: 1000, revenue: 38000 },
      ]);
      expect(data.kinds).toEqual([
        { code: 'SAVE10', kind: 'Class', uses: 1, discount: 2000, revenue: 13000 },
        { code: 'SAVE10', kind: 'Event', uses: 1, discount: 1800, revenue: 14300 },
        { code: 'SPRING', kind: 'Event', uses: 1, discount: 500, revenue: 4000 },
        { code: 'SPRING', kind: 'Party', uses: 1, discount: 500, revenue: 34000 },
      ]);
    });

    it('filters by kind and by period (the company’s day of the use)', async () => {
      const parties = await get(adminA, `coupon-code-usages?${year2031}&kind=party`);
      expect(parties.codes).toEqual([
        { code: 'SPRING', type: 'Promotional code', uses: 1, discount: 500, revenue: 34000 },
      ]);
      const next = await get(adminA, 'coupon-code-usages?from=2032-01-01&to=2032-01-31');
      expect(next.codes).toEqual([{ code: 'SAVE10', type: 'Coupon', uses: 1, discount: 450, revenue: 4050 }]);
    });

    it('shows another company only its own codes', async () => {
      const data = await get(adminB, `coupon-code-usages?${year2031}`);
      expect(data.codes).toEqual([{ code: 'BONLY', type: 'Coupon', uses: 1, discount: 450, revenue: 4050 }]);
    });

    it('gives the rows as CSV and refuses a kind it does not know with 400', async () => {
      const csv = await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/reports/coupon-code-usages?${year2031}&format=csv`,
        headers: adminA,
      });
      expect(csv.body.split('\r\n').slice(0, 3)).toEqual([
        'Code,Type,Uses,Discount given,Revenue',
        'SAVE10,Coupon,2,38.00,273.00',
        'SPRING,Promotional code,2,10.00,380.00',
      ]);
      const bad = await t.app.inject({
        method: 'GET',
        url: '/api/v1/admin/reports/coupon-code-usages?kind=lessons&from=2031-02-30',
        headers: adminA,
      });
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('vouchers', () => {
    it('lists every NSW voucher redeemed on a paid purchase of the period, with its child and amount', async () => {
      const data = await get(adminA, `vouchers?${year2031}`);
      expect(data.vouchers).toEqual([
        {
          code: 'AK111111',
          child: 'Ava Tester, Ben Tester',
          kind: 'Event booking',
          reference: codes.avaBen,
          amount: 5000,
          date: '2031-04-01',
          status: 'Not claimed',
        },
        {
          code: 'CK777777',
          child: 'Ava Tester',
          kind: 'Party',
          reference: codes.party,
          amount: 5000,
          date: '2031-05-01',
          status: 'Not claimed',
        },
        {
          code: 'AK123456',
          child: 'Dan Tester',
          kind: 'Class enrolment',
          reference: 'EN-DAN01',
          amount: 5000,
          date: '2031-06-01',
          status: 'Not claimed',
        },
      ]);
      expect(data.kinds).toEqual([
        { kind: 'Class enrolment', vouchers: 1, amount: 5000 },
        { kind: 'Event booking', vouchers: 1, amount: 5000 },
        { kind: 'Party', vouchers: 1, amount: 5000 },
      ]);
    });

    it('keeps to the period and to the company', async () => {
      const later = await get(adminA, 'vouchers?from=2031-05-01&to=2031-12-31');
      expect(later.vouchers.map((v: { code: string }) => v.code)).toEqual(['CK777777', 'AK123456']);
      expect(await get(adminB, `vouchers?${year2031}`)).toEqual({ kinds: [], vouchers: [] });
    });
  });

  describe('voucher claims', () => {
    const claim = (headers: Record<string, string>, payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/admin/reports/vouchers/claims', headers, payload });
    const statusOf = async (code: string) =>
      (await get(adminA, `vouchers?${year2031}`)).vouchers.find((v: { code: string }) => v.code === code)
        ?.status;

    it('staff mark a voucher claimed, then reimbursed; the report shows it and the audit log has both', async () => {
      expect(await statusOf('CK777777')).toBe('Not claimed');
      expect((await claim(adminA, { code: 'CK777777', status: 'claimed' })).statusCode).toBe(204);
      expect(await statusOf('CK777777')).toBe('Claimed');
      expect((await claim(adminA, { code: 'CK777777', status: 'reimbursed' })).statusCode).toBe(204);
      expect(await statusOf('CK777777')).toBe('Reimbursed');
      expect(await statusOf('AK123456')).toBe('Not claimed');
      const audit = await t.database.db.execute<{ action: string }>(
        sql`select action from audit_log where entity = 'voucher_claims' order by id`,
      );
      expect(audit.rows.map((r) => r.action)).toEqual(['voucher claimed', 'voucher reimbursed']);
    });

    it('refuses a code the company never redeemed (another company’s too) with 404 and bad input with 400', async () => {
      expect((await claim(adminB, { code: 'AK123456', status: 'claimed' })).statusCode).toBe(404);
      expect((await claim(adminA, { code: 'NOPE0000', status: 'claimed' })).statusCode).toBe(404);
      expect((await claim(adminA, { code: 'AK123456', status: 'paid' })).statusCode).toBe(400);
      expect(await statusOf('AK123456')).toBe('Not claimed');
    });
  });

  describe('events', () => {
    it('gives each event of the period its paid bookings, places, revenue, insurance and waitlist', async () => {
      const data = await get(adminA, `events?${year2031}`);
      // Autumn Camp: Ava and Ben's booking ($143, $31 insurance, 4 places) and Cal's ($40, 1 place);
      // 2 + 1 places wait for Thursday (the declined offer does not).
      expect(data.events).toEqual([
        {
          event: 'Autumn Camp',
          start: '2031-04-14',
          bookings: 2,
          places: 5,
          revenue: 18300,
          insurance: 3100,
          waitlist: 3,
        },
      ]);
      const day = (date: string, bookings: number, places: number, revenue: number, waitlist: number) => ({
        event: 'Autumn Camp',
        date,
        session: 'Morning 09:00',
        bookings,
        places,
        capacity: 10,
        revenue,
        waitlist,
      });
      expect(data.days).toEqual([
        day('2031-04-14', 1, 2, 9000, 0),
        day('2031-04-15', 1, 2, 9000, 0),
        day('2031-04-16', 1, 1, 4500, 0),
        day('2031-04-17', 0, 0, 0, 3),
      ]);
    });

    it('keeps to the period and to the company', async () => {
      const next = await get(adminA, 'events?from=2032-01-01&to=2032-12-31');
      expect(next.events).toEqual([
        {
          event: 'Summer Camp',
          start: '2032-01-12',
          bookings: 1,
          places: 1,
          revenue: 4050,
          insurance: 0,
          waitlist: 0,
        },
      ]);
      const b = await get(adminB, `events?${year2031}`);
      expect(b.events.map((e: { event: string }) => e.event)).toEqual(['B Camp']);
    });

    it('filters by one of the company’s events; another company’s event answers 404', async () => {
      const wide = 'from=2031-01-01&to=2032-12-31';
      const all = await get(adminA, `events?${wide}`);
      expect(all.events.map((e: { event: string }) => e.event)).toEqual(['Autumn Camp', 'Summer Camp']);
      const one = await get(adminA, `events?${wide}&event=${codes.summer}`);
      expect(one.events.map((e: { event: string }) => e.event)).toEqual(['Summer Camp']);
      expect(one.days.map((d: { date: string }) => d.date)).toEqual(['2032-01-12']);
      const foreign = await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/reports/events?${wide}&event=${codes.campB}`,
        headers: adminA,
      });
      expect(foreign.statusCode).toBe(404);
    });
  });
});
