import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '../../platform/errors.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { registrationForms } from '../registration/registration.tables.ts';
import { children } from '../students/students.tables.ts';
import { classEnrolments, terms } from './classes.tables.ts';
import {
  assertAdmitted,
  type QueueSettings,
  queueStatus,
  type TicketView,
  takeTicket,
  ticketOf,
} from './enrolment-queue.service.ts';
import { enrolmentQueueTickets } from './enrolment-queue.tables.ts';

const settings: QueueSettings = { waitingRoomMinutes: 30, admitPerSecond: 2, admittedForMinutes: 30 };
const SECOND = 1000;
const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * SECOND);

describe('enrolment day: the waiting room queue', () => {
  let t: TestContext;
  let authhash: string;
  let tenant: Tenant;
  let other: Tenant;

  /**
   * A term opening at `opensAt` and a published form offering it; returns both. The opening is
   * stored 123 µs later, as one typed or computed in SQL may be (a JS Date holds whole ms).
   */
  async function opening(opensAt: Date | null, company = tenant) {
    const { db } = t.database;
    const [term] = await db
      .insert(terms)
      .values(
        company.values({
          name: 'Term 1 2027',
          startDate: '2027-02-01',
          endDate: '2027-04-09',
          status: 'open' as const,
          publicEnrolmentOpensAt:
            opensAt && sql`${opensAt.toISOString()}::timestamptz + interval '123 microseconds'`,
        }),
      )
      .returning();
    const key = `form-${term!.id}`;
    await db
      .insert(registrationForms)
      .values(company.values({ key, name: 'Term 1 classes', termIds: [term!.id] }));
    return { termId: term!.id, key };
  }

  beforeAll(async () => {
    t = await createTestApp({ ENROLMENT_QUEUE_ADMIT_PER_SECOND: '2' });
    const company = await createCompany(t.database.db, {
      timeZone: 'Australia/Sydney',
      paymentMethod: 'test',
    });
    authhash = company.authhash;
    tenant = new Tenant(company.id);
    other = new Tenant((await createCompany(t.database.db)).id);
  });
  afterAll(() => t.close());

  it('gives tickets in arrival order and lets them in in that order, with the right positions', async () => {
    const { db } = t.database;
    const opensAt = new Date(Date.now() + 60 * 60 * SECOND);
    const { key } = await opening(opensAt);
    // 20 minutes before: the waiting room is open, the page is queued.
    const early = at(opensAt, -20 * 60);
    expect(await queueStatus(db, tenant, key, settings, early)).toMatchObject({ queued: true, opensAt });
    // 40 minutes before: not yet (the page is open for browsing).
    expect(await queueStatus(db, tenant, key, settings, at(opensAt, -40 * 60))).toMatchObject({
      queued: false,
    });
    await expect(takeTicket(db, tenant, key, settings, at(opensAt, -40 * 60))).rejects.toThrow(ConflictError);

    const tickets: TicketView[] = [];
    for (let i = 0; i < 5; i++) tickets.push(await takeTicket(db, tenant, key, settings, at(early, i)));
    expect(tickets.map((x) => x.number)).toEqual([1, 2, 3, 4, 5]);
    // Before the opening nobody is in; each waits behind those who came earlier.
    expect(tickets.map((x) => x.position)).toEqual([1, 2, 3, 4, 5]);
    expect(tickets.every((x) => !x.admitted)).toBe(true);

    // Two a second from the opening: at +0 the first, at +1.0 s three, at +2.0 s all five.
    const positions = async (now: Date) =>
      Promise.all(tickets.map(async (x) => (await ticketOf(db, tenant, x.token, now))!.position));
    expect(await positions(opensAt)).toEqual([0, 1, 2, 3, 4]);
    expect(await positions(at(opensAt, 0.5))).toEqual([0, 0, 1, 2, 3]);
    expect(await positions(at(opensAt, 1))).toEqual([0, 0, 0, 1, 2]);
    expect(await positions(at(opensAt, 2))).toEqual([0, 0, 0, 0, 0]);
    const fifth = (await ticketOf(db, tenant, tickets[4]!.token, at(opensAt, 1)))!;
    expect(fifth).toMatchObject({ admitted: false, estimateSeconds: 1 });

    // Someone arriving while admission runs goes to the back.
    const late = await takeTicket(db, tenant, key, settings, at(opensAt, 1));
    expect(late).toMatchObject({ number: 6, position: 3, admitted: false });
    // Once the last ticket is let in the queue is over and the page is open to everyone.
    expect(await queueStatus(db, tenant, key, settings, at(opensAt, 2.4))).toMatchObject({ queued: true });
    expect(await queueStatus(db, tenant, key, settings, at(opensAt, 2.5))).toMatchObject({ queued: false });
    // Another company never sees the tickets.
    expect(await ticketOf(db, other, tickets[0]!.token, opensAt)).toBeNull();
  });

  it('assertAdmitted refuses a ticket not yet let in while the queue runs and allows it after', async () => {
    const { db } = t.database;
    const opensAt = new Date(Date.now() + 2 * 60 * 60 * SECOND);
    const { termId, key } = await opening(opensAt);
    const { termId: openTerm } = await opening(null);
    const early = at(opensAt, -60);
    const first = await takeTicket(db, tenant, key, settings, early);
    const second = await takeTicket(db, tenant, key, settings, early);
    const check = (token: string | null, now: Date, termIds = [termId]) =>
      assertAdmitted(db, tenant, { termIds, queueToken: token }, now);

    // Before the opening nobody may check out; the message says when, in Sydney time.
    const opensText = new Intl.DateTimeFormat('en-AU', {
      timeZone: 'Australia/Sydney',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    })
      .format(opensAt)
      .replace(/\s/g, '')
      .toLowerCase();
    await expect(check(first.token, early)).rejects.toThrow(
      new RegExp(
        `^Enrolment opens (at|on .* at) ${opensText}\\. Please keep this page open: you are in the queue\\.$`,
      ),
    );
    await expect(check(null, early)).rejects.toThrow(ConflictError);
    // At the opening the first is let in, the second (half a second later) not yet.
    await expect(check(first.token, opensAt)).resolves.toBeUndefined();
    await expect(check(second.token, opensAt)).rejects.toThrow(/you are number 1 in the queue/);
    await expect(check(null, opensAt)).rejects.toThrow(/Please reload the page to join the queue/);
    await expect(check('not-a-ticket-of-this-company-xxxxx', opensAt)).rejects.toThrow(ConflictError);
    // A term without a public opening never queues; one running queue among the terms is enough.
    await expect(check(null, opensAt, [openTerm])).resolves.toBeUndefined();
    await expect(check(null, opensAt, [openTerm, termId])).rejects.toThrow(ConflictError);
    // A ticket of another company's queue at the same moment does not count here.
    const foreign = await opening(opensAt, other);
    const theirs = await takeTicket(db, other, foreign.key, settings, early);
    await expect(check(theirs.token, opensAt)).rejects.toThrow(ConflictError);
    // Half a second on, the second is in too.
    await expect(check(second.token, at(opensAt, 0.5))).resolves.toBeUndefined();
    // The queue is over (both let in): no ticket is needed any more.
    await expect(check(null, at(opensAt, 1))).resolves.toBeUndefined();
  });

  it('lets an admitted ticket check out for its window only, while the queue still runs', async () => {
    const { db } = t.database;
    const opensAt = new Date(Date.now() + 3 * 60 * 60 * SECOND);
    const slow: QueueSettings = { waitingRoomMinutes: 30, admitPerSecond: 1, admittedForMinutes: 1 };
    const { termId, key } = await opening(opensAt);
    const first = await takeTicket(db, tenant, key, slow, at(opensAt, -10));
    // 200 more behind it: admission runs for 200 s.
    for (let i = 0; i < 200; i++) await takeTicket(db, tenant, key, slow, at(opensAt, -10));
    const check = (now: Date) =>
      assertAdmitted(db, tenant, { termIds: [termId], queueToken: first.token }, now);
    await expect(check(at(opensAt, 59))).resolves.toBeUndefined();
    await expect(check(at(opensAt, 60))).rejects.toThrow(
      'Your turn to enrol has passed. Please reload the page to join the queue again.',
    );
    expect((await ticketOf(db, tenant, first.token, at(opensAt, 60)))!.expired).toBe(true);
  });

  it('200 tickets taken at once get 200 distinct numbers with no gaps', async () => {
    const { db } = t.database;
    const opensAt = new Date(Date.now() + 4 * 60 * 60 * SECOND);
    const { key } = await opening(opensAt);
    const now = at(opensAt, -60);
    const tickets = await Promise.all(
      Array.from({ length: 200 }, () => takeTicket(db, tenant, key, settings, now)),
    );
    const numbers = tickets.map((x) => x.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(new Set(tickets.map((x) => x.position)).size).toBe(200);
  });

  describe('over HTTP', () => {
    const post = (form: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/registration/queue?authhash=${authhash}`,
        payload: { form },
      });
    const poll = (token: string) =>
      t.app.inject({ method: 'GET', url: `/api/v1/registration/queue/${token}?authhash=${authhash}` });

    it('answers the status, a ticket, and the same ticket again after a refresh; a new ticket goes to the back', async () => {
      const opensAt = new Date(Date.now() + 10 * 60 * SECOND);
      const { key } = await opening(opensAt);
      const status = await t.app.inject({
        method: 'GET',
        url: `/api/v1/registration/queue?f=${key}&authhash=${authhash}`,
      });
      expect(status.statusCode).toBe(200);
      expect(status.json()).toMatchObject({
        queued: true,
        opens_at: opensAt.toISOString(),
        time_zone: 'Australia/Sydney',
      });

      const taken = await post(key);
      expect(taken.statusCode).toBe(200);
      const ticket = taken.json();
      expect(ticket).toMatchObject({ position: 1, admitted: false, opens_at: opensAt.toISOString() });
      const second = (await post(key)).json();
      expect(second.position).toBe(2);
      // The refreshed browser polls with the token it kept: the same place.
      const again = await poll(ticket.token);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ token: ticket.token, position: 1, admitted: false });
      // A browser that lost its token takes a new one: at the back.
      expect((await post(key)).json().position).toBe(3);
      expect(
        await t.database.db
          .select()
          .from(enrolmentQueueTickets)
          .where(eq(enrolmentQueueTickets.tokenHash, ticket.token)),
      ).toEqual([]); // only the hash is stored
    });

    it('refuses what is not there: an unknown form 404, a form without a queue 409, a bad token 400, an unknown one 404', async () => {
      const { key } = await opening(null);
      expect((await post('no-such-form')).statusCode).toBe(404);
      const none = await post(key);
      expect(none.statusCode).toBe(409);
      expect(none.json().message).toBe('There is no queue for this form right now. Please reload the page.');
      expect((await poll('bad token!')).statusCode).toBe(400);
      expect((await poll('x'.repeat(43))).statusCode).toBe(404);
      const status = await t.app.inject({
        method: 'GET',
        url: `/api/v1/registration/queue?f=${key}&authhash=${authhash}`,
      });
      expect(status.json()).toMatchObject({ queued: false, opens_at: null });
    });

    it('the enrolment checkout lets in only admitted tickets while the queue runs, in their turn', async () => {
      const { db } = t.database;
      const dates = Array.from({ length: 4 }, (_, i) => addDays(todayIn('Australia/Sydney'), 7 + i * 7));
      const made = await createClassWithSessions(db, tenant.companyId, { coachId: null, dates });
      // Two families a second from 2.5 s from now (the test app's rate).
      const opensAt = new Date(Date.now() + 2500);
      await db.update(terms).set({ publicEnrolmentOpensAt: opensAt }).where(eq(terms.id, made.term.id));
      const key = `checkout-${made.term.id}`;
      await db
        .insert(registrationForms)
        .values(tenant.values({ key, name: 'Queued classes', termIds: [made.term.id] }));
      const family = async () => {
        const user = await createUser(db, tenant.companyId, { role: 'student' });
        const [child] = await db
          .insert(children)
          .values(
            tenant.values({ parentId: user.id, firstName: 'Ava', lastName: 'Queue', dob: '2020-03-01' }),
          )
          .returning();
        return { headers: (await sessionFor(db, user)).headers, childId: child!.id };
      };
      const [first, sixth] = [await family(), await family()];
      const firstTicket = (await post(key)).json();
      for (let i = 0; i < 4; i++) await post(key);
      const sixthTicket = (await post(key)).json();
      expect(sixthTicket.position).toBe(6);
      const checkout = async (who: { headers: Record<string, string>; childId: number }, token?: string) => {
        const selection = {
          f: key,
          children: [{ id: who.childId }],
          choices: [{ child: 0, term_class_id: made.termClass.id, kind: 'enrolled' }],
          ...(token ? { queue_token: token } : {}),
        };
        const url = `?authhash=${authhash}`;
        const quote = await t.app.inject({
          method: 'POST',
          url: `/api/v1/registration/quote${url}`,
          payload: selection,
          headers: who.headers,
        });
        if (quote.statusCode !== 200) return quote;
        return t.app.inject({
          method: 'POST',
          url: `/api/v1/registration/checkout${url}`,
          payload: { ...selection, accept_terms: true, amount: quote.json().amount_due },
          headers: who.headers,
        });
      };

      // Before the opening: nobody, ticket or not; the page explains.
      const early = await checkout(first, firstTicket.token);
      expect(early.statusCode).toBe(409);
      expect(early.json().message).toMatch(
        /^Enrolment opens at .+\. Please keep this page open: you are in the queue\.$/,
      );
      expect((await checkout(first)).json().message).toMatch(/Please reload the page to join the queue\.$/);

      // At the opening the first ticket is in; the sixth waits its turn (2.5 s later), and no
      // ticket at all is refused while the queue runs.
      await new Promise((resolve) => setTimeout(resolve, opensAt.getTime() - Date.now() + 100));
      const admitted = await checkout(first, firstTicket.token);
      expect(admitted.statusCode, admitted.body).toBe(200);
      expect(admitted.json()).toMatchObject({ valid: true });
      const waiting = await checkout(sixth, sixthTicket.token);
      expect(waiting.statusCode).toBe(409);
      expect(waiting.json().message).toMatch(/you are number \d in the queue/);
      expect((await checkout(sixth)).statusCode).toBe(409);
      await new Promise((resolve) => setTimeout(resolve, opensAt.getTime() + 2600 - Date.now()));
      const later = await checkout(sixth, sixthTicket.token);
      expect(later.statusCode, later.body).toBe(200);
      // Another company's authhash never finds the ticket.
      const foreign = await createCompany(db);
      const theirs = await t.app.inject({
        method: 'GET',
        url: `/api/v1/registration/queue/${firstTicket.token}?authhash=${foreign.authhash}`,
      });
      expect(theirs.statusCode).toBe(404);
    });

    it('a family taking up places held for them does not queue for those, but queues for anything more', async () => {
      const { db } = t.database;
      const dates = Array.from({ length: 3 }, (_, i) => addDays(todayIn('Australia/Sydney'), 7 + i * 7));
      const made = await createClassWithSessions(db, tenant.companyId, { coachId: null, dates });
      // The queue runs: the opening is 10 minutes away, inside the waiting room.
      const opensAt = new Date(Date.now() + 10 * 60 * SECOND);
      await db.update(terms).set({ publicEnrolmentOpensAt: opensAt }).where(eq(terms.id, made.term.id));
      const key = `held-${made.term.id}`;
      await db
        .insert(registrationForms)
        .values(tenant.values({ key, name: 'Queued classes', termIds: [made.term.id] }));
      const user = await createUser(db, tenant.companyId, { role: 'student' });
      const headers = (await sessionFor(db, user)).headers;
      const kids = await db
        .insert(children)
        .values(
          ['Ava', 'Ben'].map((firstName) =>
            tenant.values({ parentId: user.id, firstName, lastName: 'Held', dob: '2020-03-01' }),
          ),
        )
        .returning();
      // Ava's place is held for the family (a waitlist offer); Ben has none.
      await db.insert(classEnrolments).values(
        tenant.values({
          termClassId: made.termClass.id,
          childId: kids[0]!.id,
          kind: 'enrolled' as const,
          status: 'pending' as const,
          heldFor: 'offer' as const,
          holdToken: 'held-token-queue',
          holdExpiresAt: new Date(Date.now() + 3600 * SECOND),
          startsOn: dates[0],
        }),
      );
      const quote = (childIndexes: number[]) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/registration/quote?authhash=${authhash}`,
          headers,
          payload: {
            f: key,
            hold_token: 'held-token-queue',
            children: kids.map((k) => ({ id: k.id })),
            choices: childIndexes.map((child) => ({
              child,
              term_class_id: made.termClass.id,
              kind: 'enrolled',
            })),
          },
        });
      const heldOnly = await quote([0]);
      expect(heldOnly.statusCode, heldOnly.body).toBe(200);
      const more = await quote([0, 1]);
      expect(more.statusCode).toBe(409);
      expect(more.json().message).toMatch(/Please reload the page to join the queue\.$/);
    });
  });
});
