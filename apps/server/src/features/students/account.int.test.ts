import { emailTaken } from '@tumble/contracts/students';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../platform/payments/payments.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, displayDate } from '../../platform/time.ts';
import { createBookableEvent, FUTURE_MONDAY } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import {
  createChild,
  createConfirmedBooking,
  createConfirmedParty,
  createWaiverTemplate,
  SIGNATURE,
} from '../../testing/waiver-fixtures.ts';
import { users } from '../accounts/accounts.tables.ts';
import { bookingPlaces, bookings, waitlistEntries } from '../bookings/bookings.tables.ts';
import { eventSessions } from '../events/events.tables.ts';
import { children } from './students.tables.ts';

describe("the parent's account", () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let me: { id: number; headers: Record<string, string> };
  let them: { id: number; headers: Record<string, string> };
  let eventId: number;

  const parent = async (companyId: number, fullName: string) => {
    const user = await createUser(t.database.db, companyId, { role: 'student', fullName });
    return { id: user.id, email: user.email, ...(await sessionFor(t.database.db, user)) };
  };
  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload: object, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, payload, headers });

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test' });
    me = await parent(company.id, 'Pat Parent');
    them = await parent(company.id, 'Other Parent');
    eventId = (await createBookableEvent(t.database.db, company.id)).event.id;
    await createWaiverTemplate(t.database.db, company.id);
  });
  afterAll(() => t.close());

  it('reads and saves the profile; an email another parent uses is refused and nothing changes', async () => {
    expect((await get('/api/v1/students/profile', me.headers)).json()).toMatchObject({
      full_name: 'Pat Parent',
    });
    const saved = await post(
      '/api/v1/students/profile',
      { full_name: 'Pat Q Parent', email: 'Pat.New@Example.test', phone: '0400 000 000' },
      me.headers,
    );
    expect(saved.json()).toMatchObject({ valid: true });
    expect((await get('/api/v1/students/profile', me.headers)).json()).toEqual({
      full_name: 'Pat Q Parent',
      email: 'pat.new@example.test',
      phone: '0400 000 000',
    });

    const theirs = (await get('/api/v1/students/profile', them.headers)).json();
    const clash = await post('/api/v1/students/profile', { ...theirs, full_name: 'Thief' }, me.headers);
    expect(clash.json()).toMatchObject({
      valid: false,
      error: { element: [{ name: 'email', messages: [emailTaken] }] },
    });
    const bad = await post(
      '/api/v1/students/profile',
      { full_name: '', email: 'nope', phone: '<b>' },
      me.headers,
    );
    expect(
      bad
        .json()
        .error.element.map((e: { name: string }) => e.name)
        .sort(),
    ).toEqual(['email', 'full_name', 'phone']);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, me.id));
    expect(row!.fullName).toBe('Pat Q Parent');
  });

  it("adds and edits children; another parent's child answers 404 and is not changed", async () => {
    const added = await post(
      '/api/v1/students/children',
      {
        first_name: 'Mia',
        last_name: 'Parent',
        dob: '2017-03-04',
        consent: 1,
        insurance_type: 'full_insurance',
      },
      me.headers,
    );
    expect(added.json()).toMatchObject({ valid: true });
    const list = (await get('/api/v1/students/children', me.headers)).json();
    expect(list).toEqual([
      {
        id: expect.any(Number),
        first_name: 'Mia',
        last_name: 'Parent',
        dob: '2017-03-04',
        consent: 1,
        insurance_type: 'full_insurance',
        medical_notes: '',
        allergies: '',
        emergency_contacts: [],
        school: '',
      },
    ]);
    const id = list[0].id;
    const edited = await post(
      `/api/v1/students/children/${id}`,
      { first_name: 'Mia', last_name: 'Parent-Smith', dob: '2017-03-04', consent: 0, insurance_type: '' },
      me.headers,
    );
    expect(edited.json()).toMatchObject({ valid: true });
    expect((await get(`/api/v1/students/children/${id}`, me.headers)).json()).toMatchObject({
      last_name: 'Parent-Smith',
      consent: 0,
      insurance_type: '',
    });

    const future = addDays(new Date().toISOString().slice(0, 10), 3);
    for (const dob of ['2025-02-30', future, '04/03/2017']) {
      const refused = await post(
        '/api/v1/students/children',
        { first_name: 'Bad', last_name: 'Date', dob },
        me.headers,
      );
      expect(refused.json().error.element).toEqual([{ name: 'dob', messages: [expect.any(String)] }]);
    }

    expect((await get(`/api/v1/students/children/${id}`, them.headers)).statusCode).toBe(404);
    const hijack = await post(
      `/api/v1/students/children/${id}`,
      { first_name: 'Hijacked', last_name: 'X', dob: '2017-03-04' },
      them.headers,
    );
    expect(hijack.statusCode).toBe(404);
    expect((await get('/api/v1/students/children', them.headers)).json()).toEqual([]);
    const [row] = await t.database.db.select().from(children).where(eq(children.id, id));
    expect(row!.firstName).toBe('Mia');
    expect((await t.database.db.select({ n: count() }).from(children))[0]!.n).toBe(1);
  });

  it('lists bookings with waiver status, party bookings, payments with PDF receipts and signed waivers — only my own', async () => {
    const mia = await createChild(t.database.db, company.id, me.id, 'Mia');
    const leo = await createChild(t.database.db, company.id, me.id, 'Leo');
    const { booking, payment } = await createConfirmedBooking(t.database.db, company.id, {
      parentId: me.id,
      eventId,
      childIds: [mia.id, leo.id],
      total: 9000,
    });
    const sign = await t.app.inject({
      method: 'POST',
      url: `/api/v1/event-booking/waiver?authhash=${company.authhash}`,
      payload: {
        id: booking.reference,
        child_id: mia.id,
        first_name: 'Mia',
        last_name: 'Tester',
        dob: '2018-04-09',
        signer_name: 'Pat Parent',
        signature: SIGNATURE,
        agree: true,
      },
    });
    expect(sign.json().valid).toBe(true);
    const setup = await createPartySetup(t.database.db, company.id);
    const { party } = await createConfirmedParty(t.database.db, company.id, {
      parentId: me.id,
      slotId: setup.morning.id,
      childId: mia.id,
      date: addDays(new Date().toISOString().slice(0, 10), 40),
      guests: [{ childName: 'Sam', parentEmail: null }],
    });

    const bookingsList = (await get('/api/v1/students/my-bookings', me.headers)).json();
    expect(bookingsList).toHaveLength(1);
    expect(bookingsList[0]).toMatchObject({
      reference: booking.reference,
      event_name: 'Holiday Camp',
      status: 'confirmed',
      total: 9000,
      payment: { id: payment.id, status: 'paid', amount: 9000 },
    });
    expect(
      bookingsList[0].children.map((c: { first_name: string; waiver: string }) => [c.first_name, c.waiver]),
    ).toEqual([
      ['Mia', 'signed'],
      ['Leo', 'needed'],
    ]);
    expect(bookingsList[0].waiver_link).toContain(`/event-booking/waiver/?id=${booking.reference}`);

    const parties = (await get('/api/v1/students/my-party-bookings', me.headers)).json();
    expect(parties).toEqual([
      expect.objectContaining({
        reference: party.reference,
        slot_name: 'Morning',
        time: '10:00',
        guests: 10,
        guests_named: 1,
        deposit: 10000,
        balance: 29500,
        // Mia signed for the event; the party's link will find that waiver, but it is not marked yet.
        waiver: 'needed',
        update_guests_link: expect.stringContaining(`/birthday-party/update-guest/?id=${party.reference}`),
      }),
    ]);

    const paymentsList = (await get('/api/v1/students/payments', me.headers)).json();
    expect(paymentsList).toEqual([
      expect.objectContaining({
        id: payment.id,
        amount: 9000,
        status: 'paid',
        description: expect.stringContaining('Holiday Camp'),
      }),
    ]);
    const receipt = await get(paymentsList[0].receipt_url, me.headers);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const waiversList = (await get('/api/v1/students/waivers', me.headers)).json();
    expect(waiversList).toEqual([
      expect.objectContaining({ child_name: 'Mia Tester', waiver_title: 'Participation waiver', version: 1 }),
    ]);
    const pdf = await get(waiversList[0].pdf_url, me.headers);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // Another parent of the same company sees none of it.
    for (const url of [
      '/api/v1/students/my-bookings',
      '/api/v1/students/my-party-bookings',
      '/api/v1/students/payments',
      '/api/v1/students/waivers',
    ]) {
      expect((await get(url, them.headers)).json()).toEqual([]);
    }
    expect((await get(paymentsList[0].receipt_url, them.headers)).statusCode).toBe(404);
    expect((await get(waiversList[0].pdf_url, them.headers)).statusCode).toBe(404);
    // Staff are not parents.
    const staff = await createUser(t.database.db, company.id, { role: 'companyadmin' });
    expect(
      (await get('/api/v1/students/my-bookings', (await sessionFor(t.database.db, staff)).headers))
        .statusCode,
    ).toBe(403);
  });

  it("lists the parent's waitlisted days with their place in the queue, and lets the parent leave one (issue 21 point 2)", async () => {
    const other = await createCompany(t.database.db, { paymentMethod: 'test' });
    const stranger = await parent(other.id, 'Stranger');
    const setup = await createBookableEvent(t.database.db, company.id);
    const tenant = new Tenant(company.id);
    const entry = (parentId: number, date: string, status: 'waiting' | 'invited' = 'waiting') => ({
      parentId,
      eventId: setup.event.id,
      sessionId: setup.session.id,
      date,
      places: 1,
      status,
    });
    const monday = setup.event.startDate;
    const tuesday = addDays(monday, 1);
    // They queued first on Monday; I am second there, and invited on Tuesday.
    await t.database.db.insert(waitlistEntries).values(tenant.values(entry(them.id, monday)));
    const [mine] = await t.database.db
      .insert(waitlistEntries)
      .values([tenant.values(entry(me.id, monday)), tenant.values(entry(me.id, tuesday, 'invited'))])
      .returning();

    const list = (await get('/api/v1/students/my-waitlist', me.headers)).json();
    expect(list).toEqual([
      {
        id: mine!.id,
        event_name: 'Holiday Camp',
        session_name: 'Morning',
        date: monday,
        places: 1,
        status: 'waiting',
        position: 2,
      },
      expect.objectContaining({ date: tuesday, status: 'invited', position: null }),
    ]);
    expect((await get('/api/v1/students/my-waitlist', them.headers)).json()).toEqual([
      expect.objectContaining({ date: monday, position: 1 }),
    ]);

    // Another parent's entry, and another company's parent: 404, nothing changes.
    expect((await post(`/api/v1/students/my-waitlist/${mine!.id}/leave`, {}, them.headers)).statusCode).toBe(
      404,
    );
    expect(
      (await post(`/api/v1/students/my-waitlist/${mine!.id}/leave`, {}, stranger.headers)).statusCode,
    ).toBe(404);
    expect((await get('/api/v1/students/my-waitlist', me.headers)).json()).toHaveLength(2);

    const left = await post(`/api/v1/students/my-waitlist/${mine!.id}/leave`, {}, me.headers);
    expect(left.json()).toEqual({ valid: true });
    expect((await get('/api/v1/students/my-waitlist', me.headers)).json()).toEqual([
      expect.objectContaining({ date: tuesday }),
    ]);
    expect((await post(`/api/v1/students/my-waitlist/${mine!.id}/leave`, {}, me.headers)).statusCode).toBe(
      404,
    );
  });

  it('lists each booked day once by date then start time, and pays for events and parties with what each was for', async () => {
    const db = t.database.db;
    // A company of its own: one party setup per company.
    const shop = await createCompany(db, { paymentMethod: 'test' });
    const tenant = new Tenant(shop.id);
    const family = await parent(shop.id, 'Sam Stitch');
    const neighbour = await parent(shop.id, 'Nell Neighbour');
    const setup = await createBookableEvent(db, shop.id);
    const [early] = await db
      .insert(eventSessions)
      .values(
        tenant.values({
          eventId: setup.event.id,
          name: 'Early',
          startDate: FUTURE_MONDAY,
          endDate: addDays(FUTURE_MONDAY, 4),
          startTime: '07:00',
          endTime: '08:00',
          capacity: 5,
        }),
      )
      .returning();
    const kid = await createChild(db, shop.id, family.id, 'Kai');
    const { booking, payment } = await createConfirmedBooking(db, shop.id, {
      parentId: family.id,
      eventId: setup.event.id,
      childIds: [kid.id],
      total: 9000,
    });
    const tuesday = addDays(FUTURE_MONDAY, 1);
    // Inserted out of order: the list sorts by day, then by the session's start time.
    for (const [sessionId, date] of [
      [setup.session.id, tuesday],
      [early!.id, tuesday],
      [setup.session.id, FUTURE_MONDAY],
    ] as const) {
      await db
        .insert(bookingPlaces)
        .values(tenant.values({ bookingId: booking.id, sessionId, date, places: 1, unitPrice: 4500 }));
    }
    const setupParty = await createPartySetup(db, shop.id);
    const partyDate = addDays(new Date().toISOString().slice(0, 10), 45);
    const { party } = await createConfirmedParty(db, shop.id, {
      parentId: family.id,
      slotId: setupParty.afternoon.id,
      childId: kid.id,
      date: partyDate,
    });
    const [deposit] = await db
      .insert(payments)
      .values(
        tenant.values({
          purchaseKind: 'party' as const,
          purchaseId: party.id,
          provider: 'test' as const,
          providerRef: 'test_deposit',
          amount: 10000,
          status: 'paid' as const,
          paidAt: new Date(Date.now() + 60_000),
        }),
      )
      .returning();

    const [listed] = (await get('/api/v1/students/my-bookings', family.headers)).json();
    expect(listed.sessions).toEqual([
      { session_id: setup.session.id, date: FUTURE_MONDAY, name: 'Morning' },
      { session_id: early!.id, date: tuesday, name: 'Early' },
      { session_id: setup.session.id, date: tuesday, name: 'Morning' },
    ]);
    const paid = (await get('/api/v1/students/payments', family.headers)).json();
    expect(paid.map((p: { id: number; description: string }) => [p.id, p.description])).toEqual([
      [deposit!.id, `Birthday party deposit, ${displayDate(partyDate)} (booking ${party.code})`],
      [payment.id, `Holiday Camp (booking ${booking.code})`],
    ]);
    expect((await get(`/api/v1/students/payments/${deposit!.id}/receipt`, family.headers)).statusCode).toBe(
      200,
    );
    // Another parent of the company sees neither payment nor receipt.
    expect(
      (await get(`/api/v1/students/payments/${deposit!.id}/receipt`, neighbour.headers)).statusCode,
    ).toBe(404);
    expect(
      (await get('/api/v1/students/payments', neighbour.headers)).json().map((p: { id: number }) => p.id),
    ).not.toContain(deposit!.id);
  });

  it("gives each booking's day in the company's time zone, not UTC (issue 21 point 30)", async () => {
    const setup = await createBookableEvent(t.database.db, company.id);
    const mia = await createChild(t.database.db, company.id, them.id, 'Mia');
    const { booking } = await createConfirmedBooking(t.database.db, company.id, {
      parentId: them.id,
      eventId: setup.event.id,
      childIds: [mia.id],
      total: 4500,
    });
    // 23 Nov 2026 22:30 UTC is already 24 Nov in Sydney (the company's zone).
    await t.database.db
      .update(bookings)
      .set({ createdAt: new Date('2026-11-23T22:30:00Z') })
      .where(eq(bookings.id, booking.id));
    const list = (await get('/api/v1/students/my-bookings', them.headers)).json();
    expect(list.find((b: { reference: string }) => b.reference === booking.reference)).toMatchObject({
      booked_on: '2026-11-24',
    });
  });
});
