import type { CreatedFeedResponse, StaffFeedsResponse } from '@tumble/contracts/calendar-feeds';
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { sha256 } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, isoWeekday, todayIn } from '../../platform/time.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild, createConfirmedBooking, createConfirmedParty } from '../../testing/waiver-fixtures.ts';
import { companies } from '../accounts/accounts.tables.ts';
import { bookingPlaces } from '../bookings/bookings.tables.ts';
import { classEnrolments, classSessions, classTypes, termClasses, terms } from '../classes/classes.tables.ts';
import { queueEnrolmentConfirmation } from '../classes/enrolment-mail.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from '../classes/enrolments.tables.ts';
import { cancelSession, moveSession } from '../classes/sessions.service.ts';
import { coaches } from '../coaches/coaches.tables.ts';
import { eventSessions, events } from '../events/events.tables.ts';
import { partySlots } from '../parties/parties.tables.ts';
import { rooms, venues } from '../venues/venues.tables.ts';
import { calendarFeeds } from './calendar-feeds.tables.ts';
import { calendarFeedsStatus } from './feeds.service.ts';

type Headers = { headers: Record<string, string> };

/** A parsed feed: each VEVENT's UID, summary, start (UTC ISO), SEQUENCE and STATUS. */
function parseFeed(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return {
    name: calendar.getFirstPropertyValue('x-wr-calname'),
    events: calendar.getAllSubcomponents('vevent').map((vevent) => {
      const event = new ICAL.Event(vevent);
      return {
        uid: event.uid,
        summary: event.summary,
        start: event.startDate.toJSDate().toISOString(),
        end: event.endDate.toJSDate().toISOString(),
        sequence: event.sequence,
        status: vevent.getFirstPropertyValue('status'),
      };
    }),
  };
}

const TZ = 'Australia/Sydney';

describe('calendar feeds', () => {
  let t: TestContext;
  let admin: Headers;
  let staff: Headers;
  let coachUserSession: Headers;
  let familyA: Headers;
  let familyB: Headers;
  let otherAdmin: Headers;
  let companyId: number;
  let otherCompanyId: number;
  const today = todayIn(TZ);
  const f = {} as {
    casey: number;
    sam: number;
    monday: number;
    moved: number;
    cancelled: number;
    trial: number;
    bSession: number;
    nextSession: number;
    pastSession: number;
    laterSession: number;
    eventSession: number;
    bookedDay: string;
    partyA: number;
    partyB: number;
    otherSession: number;
    parentA: number;
    parentB: number;
    ivyPlace: number;
  };

  /** The next date on or after `from` that is this ISO weekday. */
  const nextWeekday = (from: string, weekday: number) => {
    let date = from;
    while (isoWeekday(date) !== String(weekday)) date = addDays(date, 1);
    return date;
  };

  async function seed(id: number, prefix: string) {
    const { db } = t.database;
    const tenant = new Tenant(id);
    const [venue] = await db
      .insert(venues)
      .values(tenant.values({ name: `${prefix} Gym` }))
      .returning();
    const [room] = await db
      .insert(rooms)
      .values(tenant.values({ venueId: venue!.id, name: `${prefix} floor` }))
      .returning();
    const coachUser = await createUser(db, id, { role: 'companycoach', fullName: `${prefix} Casey` });
    const samUser = await createUser(db, id, { role: 'companycoach', fullName: `${prefix} Sam` });
    const cleared = {
      wwccNumber: 'WWC1234567E',
      wwccOutcome: 'cleared' as const,
      wwccVerifiedOn: '2026-01-05',
    };
    const [casey, sam] = await db
      .insert(coaches)
      .values([
        tenant.values({ userId: coachUser.id, ...cleared, wwccExpiresOn: '2030-01-01' }),
        tenant.values({ userId: samUser.id, ...cleared, wwccExpiresOn: '2030-01-01' }),
      ])
      .returning();
    const [type] = await db
      .insert(classTypes)
      .values(tenant.values({ name: `${prefix} Kinder Gym`, colour: '#f08c00' }))
      .returning();
    const [past, current, next, later] = await db
      .insert(terms)
      .values([
        tenant.values({ name: 'Past term', startDate: addDays(today, -200), endDate: addDays(today, -120) }),
        tenant.values({ name: 'Current term', startDate: addDays(today, -20), endDate: addDays(today, 40) }),
        tenant.values({ name: 'Next term', startDate: addDays(today, 60), endDate: addDays(today, 120) }),
        tenant.values({ name: 'Later term', startDate: addDays(today, 150), endDate: addDays(today, 220) }),
      ])
      .returning();
    const klass = async (termId: number, name: string, coachId: number) =>
      (
        await db
          .insert(termClasses)
          .values(
            tenant.values({
              termId,
              classTypeId: type!.id,
              name,
              weekday: 1,
              startTime: '16:00',
              durationMinutes: 45,
              roomId: room!.id,
              leadCoachId: coachId,
              capacity: 8,
            }),
          )
          .returning()
      )[0]!.id;
    const session = async (termClassId: number, date: string, coachId: number | null, startTime = '16:00') =>
      (
        await db
          .insert(classSessions)
          .values(
            tenant.values({
              termClassId,
              slotDate: date,
              date,
              startTime,
              durationMinutes: 45,
              roomId: room!.id,
              coachId,
            }),
          )
          .returning()
      )[0]!.id;
    const mondays = nextWeekday(addDays(today, 1), 1);
    const caseyClass = await klass(current!.id, `${prefix} Monday Kinder`, casey!.id);
    const samClass = await klass(current!.id, `${prefix} Monday Ninjas`, sam!.id);
    const nextClass = await klass(next!.id, `${prefix} Next Kinder`, casey!.id);
    const pastClass = await klass(past!.id, `${prefix} Old Kinder`, casey!.id);
    const laterClass = await klass(later!.id, `${prefix} Later Kinder`, casey!.id);
    const monday = await session(caseyClass, mondays, casey!.id);
    const moved = await session(caseyClass, addDays(mondays, 7), null, '17:00');
    const cancelled = await session(caseyClass, addDays(mondays, 14), casey!.id);
    const trial = await session(samClass, mondays, sam!.id, '17:00');
    const bSession = await session(samClass, addDays(mondays, 7), sam!.id, '17:00');
    const nextSession = await session(nextClass, addDays(today, 63), casey!.id);
    const pastSession = await session(pastClass, addDays(today, -150), casey!.id);
    const laterSession = await session(laterClass, addDays(today, 155), casey!.id);

    const parentA = await createUser(db, id, { role: 'student', fullName: `${prefix} Parent A` });
    const parentB = await createUser(db, id, { role: 'student', fullName: `${prefix} Parent B` });
    const ivy = await createChild(db, id, parentA.id, 'Ivy');
    const max = await createChild(db, id, parentB.id, 'Max');
    const places = await db
      .insert(classEnrolments)
      .values([
        tenant.values({
          termClassId: caseyClass,
          childId: ivy.id,
          kind: 'enrolled' as const,
          status: 'active' as const,
        }),
        tenant.values({
          termClassId: samClass,
          childId: ivy.id,
          kind: 'trial' as const,
          sessionId: trial,
          status: 'active' as const,
        }),
        tenant.values({
          termClassId: samClass,
          childId: max.id,
          kind: 'enrolled' as const,
          status: 'active' as const,
        }),
      ])
      .returning({ id: classEnrolments.id });

    const [event] = await db
      .insert(events)
      .values(
        tenant.values({
          name: `${prefix} Holiday Camp`,
          startDate: addDays(today, 10),
          endDate: addDays(today, 12),
          published: true,
        }),
      )
      .returning();
    const [eventSession] = await db
      .insert(eventSessions)
      .values(
        tenant.values({
          eventId: event!.id,
          name: 'Morning',
          startDate: addDays(today, 10),
          endDate: addDays(today, 12),
          startTime: '09:00',
          endTime: '12:00',
          daysOfWeek: ['1', '2', '3', '4', '5', '6', '7'],
          capacity: 10,
        }),
      )
      .returning();
    const { booking } = await createConfirmedBooking(db, id, {
      parentId: parentA.id,
      eventId: event!.id,
      childIds: [ivy.id],
    });
    const bookedDay = addDays(today, 11);
    await db.insert(bookingPlaces).values(
      tenant.values({
        bookingId: booking.id,
        sessionId: eventSession!.id,
        date: bookedDay,
        places: 1,
        unitPrice: 4500,
      }),
    );
    const [slot] = await db
      .insert(partySlots)
      .values(
        tenant.values({
          name: 'Sunday afternoon',
          roomId: room!.id,
          startTime: '13:00',
          durationMinutes: 120,
          daysOfWeek: ['7'],
          capacity: 20,
        }),
      )
      .returning();
    const partyA = await createConfirmedParty(db, id, {
      parentId: parentA.id,
      slotId: slot!.id,
      childId: ivy.id,
      date: nextWeekday(addDays(today, 20), 7),
    });
    const partyB = await createConfirmedParty(db, id, {
      parentId: parentB.id,
      slotId: slot!.id,
      childId: max.id,
      date: nextWeekday(addDays(today, 27), 7),
    });
    return {
      ivyPlace: places[0]!.id,
      casey: casey!.id,
      sam: sam!.id,
      coachUser,
      monday,
      moved,
      cancelled,
      trial,
      bSession,
      nextSession,
      pastSession,
      laterSession,
      eventSession: eventSession!.id,
      bookedDay,
      partyA: partyA.party.id,
      partyB: partyB.party.id,
      parentA,
      parentB,
    };
  }

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db, { timeZone: TZ, name: 'Tumble Gym' });
    const other = await createCompany(db, { timeZone: TZ });
    companyId = company.id;
    otherCompanyId = other.id;
    const mine = await seed(company.id, 'A');
    const theirs = await seed(other.id, 'Z');
    Object.assign(f, {
      ...mine,
      parentA: mine.parentA.id,
      parentB: mine.parentB.id,
      otherSession: theirs.monday,
    });
    admin = await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' }));
    staff = await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }));
    coachUserSession = await sessionFor(db, mine.coachUser);
    familyA = await sessionFor(db, mine.parentA);
    familyB = await sessionFor(db, mine.parentB);
    otherAdmin = await sessionFor(db, await createUser(db, other.id, { role: 'companyadmin' }));
  });
  afterAll(() => t.close());

  const make = async (headers: Headers, payload: object) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/integrations/google/feeds',
      headers: headers.headers,
      payload,
    });
    return { status: response.statusCode, body: response.json() as CreatedFeedResponse };
  };
  const makeFamily = async (headers: Headers) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/students/calendar-feed',
      ...headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json() as CreatedFeedResponse;
  };
  const fetchFeed = async (url: string, headers: Record<string, string> = {}) => {
    const response = await t.app.inject({ method: 'GET', url: new URL(url).pathname, headers });
    return response;
  };
  const uidOf = (kind: string, id: number | string) =>
    `${kind}-${id}@${new URL(t.deps.config.publicUrl).host}`;

  it('serves the company feed: every session of the current and next terms, event days and parties, nothing of another company', async () => {
    const made = await make(admin, { kind: 'company' });
    expect(made.status).toBe(200);
    expect(made.body.url).toMatch(/\/feeds\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(made.body.google_url).toBe(
      `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(made.body.url.replace(/^https?:\/\//, 'webcal://'))}`,
    );
    // Only the hash is kept.
    const token = made.body.url.split('/feeds/')[1]!.replace('.ics', '');
    const [row] = await t.database.db
      .select()
      .from(calendarFeeds)
      .where(new Tenant(companyId).byId(calendarFeeds, made.body.feed.id));
    expect(row!.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const response = await fetchFeed(made.body.url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const feed = parseFeed(response.body);
    expect(feed.name).toBe('Tumble Gym timetable');
    const uids = feed.events.map((e) => e.uid).sort();
    const expectedSessions = [f.monday, f.moved, f.cancelled, f.trial, f.bSession, f.nextSession];
    const eventDays = [10, 11, 12].map((d) => uidOf(`event-${f.eventSession}`, addDays(today, d)));
    expect(uids).toEqual(
      [
        ...expectedSessions.map((id) => uidOf('class-session', id)),
        ...eventDays,
        uidOf('party', f.partyA),
        uidOf('party', f.partyB),
      ].sort(),
    );
    expect(uids).not.toContain(uidOf('class-session', f.pastSession));
    expect(uids).not.toContain(uidOf('class-session', f.laterSession));
    expect(uids).not.toContain(uidOf('class-session', f.otherSession));
    // 16:00 in Sydney in summer (+11) is 05:00 UTC; 45 minutes long.
    const monday = feed.events.find((e) => e.uid === uidOf('class-session', f.monday))!;
    expect(monday.summary).toBe('A Monday Kinder');
    expect(monday.start).toMatch(/T05:00:00.000Z$/);
    expect(new Date(monday.end).getTime() - new Date(monday.start).getTime()).toBe(45 * 60_000);
    expect(monday.status).toBe('CONFIRMED');
  });

  it('serves a coach feed with only the sessions they coach', async () => {
    const made = await make(admin, { kind: 'coach', coach_id: f.sam });
    expect(made.status).toBe(200);
    const feed = parseFeed((await fetchFeed(made.body.url)).body);
    expect(feed.name).toBe('Tumble Gym: A Sam');
    expect(feed.events.map((e) => e.uid).sort()).toEqual(
      [uidOf('class-session', f.trial), uidOf('class-session', f.bSession)].sort(),
    );
  });

  it("serves a family feed with their children's classes, booked event days and parties, never another family's", async () => {
    const a = await makeFamily(familyA);
    const feed = parseFeed((await fetchFeed(a.url)).body);
    expect(feed.events.map((e) => e.uid).sort()).toEqual(
      [
        uidOf('class-session', f.monday),
        uidOf('class-session', f.moved),
        uidOf('class-session', f.cancelled),
        uidOf('class-session', f.trial),
        uidOf(`event-${f.eventSession}`, f.bookedDay),
        uidOf('party', f.partyA),
      ].sort(),
    );
    expect(feed.events.find((e) => e.uid === uidOf('class-session', f.trial))!.summary).toBe(
      'A Monday Ninjas: Ivy',
    );
    const bFeed = await makeFamily(familyB);
    const b = parseFeed((await fetchFeed(bFeed.url)).body);
    // Max is enrolled in the Ninjas: every session of it, the day of Ivy's trial too, named for Max only.
    expect(b.events.map((e) => e.uid).sort()).toEqual(
      [uidOf('class-session', f.trial), uidOf('class-session', f.bSession), uidOf('party', f.partyB)].sort(),
    );
    expect(b.events.find((e) => e.uid === uidOf('class-session', f.trial))!.summary).toBe(
      'A Monday Ninjas: Max',
    );
    expect(b.events.some((e) => e.summary.includes('Ivy'))).toBe(false);
    // The family route takes no fields: one with fields is refused and keeps the feed it had.
    const before = await calendarFeedsStatus(t.database.db, new Tenant(companyId));
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/students/calendar-feed',
      ...familyB,
      payload: { parent_id: f.parentA },
    });
    expect(refused.statusCode).toBe(400);
    expect(await calendarFeedsStatus(t.database.db, new Tenant(companyId))).toEqual(before);
    expect((await fetchFeed(bFeed.url)).statusCode).toBe(200);
  });

  it('the enrolment confirmation links the first session of each place and the family feed page', async () => {
    const { db } = t.database;
    const tenant = new Tenant(companyId);
    const [purchase] = await db
      .insert(enrolmentPurchases)
      .values(
        tenant.values({
          parentId: f.parentA,
          reference: 'feeds-enrolment',
          code: 'EN-FEED1',
          status: 'confirmed' as const,
          pricing: { total: 0 },
          total: 0,
        }),
      )
      .returning();
    await db
      .insert(enrolmentPurchaseItems)
      .values(tenant.values({ purchaseId: purchase!.id, enrolmentId: f.ivyPlace, amount: 0 }));
    await db.transaction((tx) => queueEnrolmentConfirmation(t.deps, tx, tenant, purchase!.id));
    const [mail] = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'enrolment-confirmation'), eq(mailOutbox.companyId, companyId)));
    const links = [...mail!.text.matchAll(/https:\/\/calendar\.google\.com\/calendar\/render\?\S+/g)].map(
      (m) => new URL(m[0]),
    );
    // One place: one link, for its first session (16:00 Sydney summer time is 05:00 UTC).
    expect(links).toHaveLength(1);
    const [first] = parseFeed((await fetchFeed((await makeFamily(familyA)).url)).body)
      .events.filter((e) => e.summary.startsWith('A Monday Kinder'))
      .sort((x, y) => x.start.localeCompare(y.start));
    const compact = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    expect(links[0]!.searchParams.get('dates')).toBe(`${compact(first!.start)}/${compact(first!.end)}`);
    expect(mail!.text).toContain(
      `All your classes, events and parties in your calendar: ${t.deps.config.publicUrl}/admin/students/calendar`,
    );
  });

  it('updates a moved session in place (same UID, new time, higher SEQUENCE) and keeps a cancelled one as CANCELLED', async () => {
    const { url } = await makeFamily(familyA);
    const before = parseFeed((await fetchFeed(url)).body).events.find(
      (e) => e.uid === uidOf('class-session', f.moved),
    )!;
    const tenant = new Tenant(companyId);
    await t.database.db.transaction((tx) => moveSession(tx, tenant, f.moved, { startTime: '18:30' }));
    await t.database.db.transaction((tx) =>
      cancelSession(tx, tenant, t.deps.config, f.cancelled, 'Pool closed'),
    );
    const after = parseFeed((await fetchFeed(url)).body).events;
    const moved = after.filter((e) => e.uid === uidOf('class-session', f.moved));
    expect(moved).toHaveLength(1);
    expect(new Date(moved[0]!.start).getTime() - new Date(before.start).getTime()).toBe(90 * 60_000);
    expect(moved[0]!.sequence).toBeGreaterThan(before.sequence);
    const cancelled = after.find((e) => e.uid === uidOf('class-session', f.cancelled))!;
    expect(cancelled.status).toBe('CANCELLED');
  });

  it('answers 304 to a calendar that already has this version (ETag)', async () => {
    const { url } = await make(admin, { kind: 'company' }).then((r) => r.body);
    const first = await fetchFeed(url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await fetchFeed(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('regenerating revokes the old URL (404); unknown, malformed and revoked tokens answer the same 404', async () => {
    const first = (await make(admin, { kind: 'coach', coach_id: f.casey })).body;
    expect((await fetchFeed(first.url)).statusCode).toBe(200);
    const second = (await make(admin, { kind: 'coach', coach_id: f.casey })).body;
    expect((await fetchFeed(second.url)).statusCode).toBe(200);
    const old = await fetchFeed(first.url);
    expect(old.statusCode).toBe(404);
    expect(old.body).toBe('Not found');
    expect((await t.app.inject({ method: 'GET', url: '/feeds/not-a-token.ics' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/feeds/${'x'.repeat(43)}.ics` })).statusCode).toBe(404);
    // Staff stop a feed: its URL answers 404 too.
    const stop = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/admin/integrations/google/feeds/${second.feed.id}`,
      ...admin,
    });
    expect(stop.statusCode).toBe(204);
    expect((await fetchFeed(second.url)).statusCode).toBe(404);
  });

  it("a suspended company's feeds answer 404", async () => {
    const { db } = t.database;
    const made = (await make(otherAdmin, { kind: 'company' })).body;
    expect((await fetchFeed(made.url)).statusCode).toBe(200);
    // cross-tenant: the test suspends the other company.
    await db.update(companies).set({ status: 'suspended' }).where(eq(companies.id, otherCompanyId));
    await t.syncCache();
    expect((await fetchFeed(made.url)).statusCode).toBe(404);
    await db.update(companies).set({ status: 'active' }).where(eq(companies.id, otherCompanyId));
    await t.syncCache();
    expect((await fetchFeed(made.url)).statusCode).toBe(200);
  });

  it('a company without the Integrations module publishes no feed and has no feed settings', async () => {
    const { db } = t.database;
    const made = (await make(otherAdmin, { kind: 'company' })).body;
    // cross-tenant: the test switches the other company's module off.
    await db
      .update(companies)
      .set({ disabledModules: ['integrations'] })
      .where(eq(companies.id, otherCompanyId));
    await t.syncCache();
    expect((await fetchFeed(made.url)).statusCode).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/integrations/google/feeds',
      ...otherAdmin,
    });
    expect(list.statusCode).toBe(404);
    await db.update(companies).set({ disabledModules: [] }).where(eq(companies.id, otherCompanyId));
    await t.syncCache();
    expect((await fetchFeed(made.url)).statusCode).toBe(200);
  });

  it('limits how often one address fetches feeds, like every public route', async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await limited.app.inject({ method: 'GET', url: `/feeds/${'a'.repeat(43)}.ics` })).statusCode,
        );
      expect(statuses).toEqual([404, 404, 404, 429]);
    } finally {
      await limited.close();
    }
  });

  it('answers any feed address it did not make with 404, never an error (fuzz)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 120 }), async (name) => {
        const response = await t.app.inject({ method: 'GET', url: `/feeds/${encodeURIComponent(name)}.ics` });
        expect(response.statusCode).toBe(404);
      }),
      { numRuns: 60 },
    );
  });

  it('lists the company and coach feeds for staff, refuses coaches and families, and keeps companies apart', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/integrations/google/feeds',
      ...staff,
    });
    expect(list.statusCode).toBe(200);
    const body = list.json() as StaffFeedsResponse;
    expect(body.company).not.toBeNull();
    expect(body.coaches.map((c) => c.name)).toEqual(['A Casey', 'A Sam']);
    expect(body.coaches.find((c) => c.coach_id === f.sam)!.feed).not.toBeNull();
    // Staff (not admins) may look but not make.
    expect((await make(staff, { kind: 'company' })).status).toBe(403);
    expect((await make(coachUserSession, { kind: 'company' })).status).toBe(403);
    expect((await make(familyA, { kind: 'company' })).status).toBe(403);
    // Another company's coach is not found, and nothing is made.
    const before = await calendarFeedsStatus(t.database.db, new Tenant(otherCompanyId));
    expect((await make(otherAdmin, { kind: 'coach', coach_id: f.sam })).status).toBe(404);
    expect(await calendarFeedsStatus(t.database.db, new Tenant(otherCompanyId))).toEqual(before);
    // Another company's feed cannot be stopped.
    const theirs = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/admin/integrations/google/feeds/${body.company!.id}`,
      ...otherAdmin,
    });
    expect(theirs.statusCode).toBe(404);
    expect((await make(admin, { kind: 'coach' })).status).toBe(400);
  });

  it('calendarFeedsStatus counts the live feeds', async () => {
    const status = await calendarFeedsStatus(t.database.db, new Tenant(companyId));
    // company, Sam, family A, family B (Casey's was stopped).
    expect(status).toEqual({ enabled: true, feedCount: 4, lastError: null });
  });
});
