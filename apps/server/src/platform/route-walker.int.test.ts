import { type Role, roles } from '@tumble/contracts/auth';
import { waiverMessages } from '@tumble/contracts/waiver';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationAnomalies, registrationForms } from '../features/registration/registration.tables.ts';
import { createBookableEvent, FUTURE_MONDAY } from '../testing/booking-fixtures.ts';
import { createClassWithSessions, createCoach } from '../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../testing/factories.ts';
import { createTestApp, type TestContext } from '../testing/harness.ts';
import { createPartySetup } from '../testing/party-fixtures.ts';
import { UNREACHABLE_PAYMENT_KEYS } from '../testing/payment-env.ts';
import { createConfirmedLesson, createPrivateSlot } from '../testing/private-lesson-fixtures.ts';
import {
  createChild,
  createConfirmedBooking,
  createConfirmedParty,
  createWaiverTemplate,
  SIGNATURE,
} from '../testing/waiver-fixtures.ts';
import { authPlugin } from './auth.ts';
import { type Access, permissions, roleHas } from './permissions.ts';
import { allResources, collectionPath } from './resources/define.ts';

/** These walk every route (several hundred now), each a real request: minutes on a busy machine, not seconds. */
const EVERY_ROUTE_TIMEOUT = 300_000;

/**
 * Walks every route the server registers (issue 8, point 1). The list comes from the server
 * itself (`app.routeAccess`, filled as routes are added), so a new route is covered without
 * anyone remembering to add it here.
 */
type Headers = Record<string, string>;

/** Tables whose rows a request may legitimately touch without changing business data. */
const BOOKKEEPING = new Set(['auth_sessions', 'auth_throttle', 'rate_limits']);

describe('route walker: every registered route', () => {
  let t: TestContext;
  const asRole = {} as Record<Role, Headers>;
  const userOf = {} as Record<Role, { id: number; companyId: number }>;
  let foreign: { admin: Headers; parent: Headers; authhash: string };
  /** Company A's ids that the id-bearing routes are called with. */
  let ids: Record<string, string | number>;

  const inject = (method: string, url: string, headers: Headers = {}, payload?: object) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers,
      payload: method === 'GET' || method === 'DELETE' ? undefined : (payload ?? {}),
    });

  /** Every table's contents as one hash per table, to prove a set of calls changed nothing. */
  const fingerprint = async () => {
    const tables = await t.database.db.execute<{ name: string }>(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    const result: Record<string, string> = {};
    for (const { name } of tables.rows) {
      if (BOOKKEEPING.has(name) || name.startsWith('__drizzle')) continue;
      const [row] = (
        await t.database.db.execute<{ h: string }>(
          sql.raw(
            `select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${name}" x`,
          ),
        )
      ).rows;
      result[name] = row!.h;
    }
    return result;
  };

  beforeAll(async () => {
    t = await createTestApp(UNREACHABLE_PAYMENT_KEYS);
    const { db } = t.database;
    const a = await createCompany(db, { paymentMethod: 'test' });
    const b = await createCompany(db, { paymentMethod: 'test' });
    for (const role of roles) {
      userOf[role] = await createUser(db, a.id, { role });
      asRole[role] = (await sessionFor(db, userOf[role])).headers;
    }
    foreign = {
      admin: (await sessionFor(db, await createUser(db, b.id, { role: 'companyadmin' }))).headers,
      parent: (await sessionFor(db, await createUser(db, b.id, { role: 'student' }))).headers,
      authhash: b.authhash,
    };

    // Company A's rows behind every id-bearing route that is not an engine resource.
    const parent = await createUser(db, a.id, { role: 'student' });
    const staff = await createUser(db, a.id, { role: 'companystaff' });
    const { event, session } = await createBookableEvent(db, a.id);
    await createWaiverTemplate(db, a.id);
    const child = await createChild(db, a.id, parent.id);
    const { booking, payment } = await createConfirmedBooking(db, a.id, {
      parentId: parent.id,
      eventId: event.id,
      childIds: [child.id],
    });
    const setup = await createPartySetup(db, a.id);
    const { party } = await createConfirmedParty(db, a.id, {
      parentId: parent.id,
      slotId: setup.morning.id,
      childId: child.id,
      date: new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10),
      guests: [{ childName: 'Sam Guest', parentEmail: 'sam@example.test' }],
    });
    const signed = await inject(
      'POST',
      `/api/v1/event-booking/waiver?authhash=${a.authhash}`,
      {},
      {
        id: booking.reference,
        child_id: child.id,
        first_name: 'Mia',
        last_name: 'Tester',
        dob: '2018-04-09',
        signer_name: 'Pat',
        signature: SIGNATURE,
        agree: true,
      },
    );
    expect(signed.json().valid).toBe(true);
    const staffHeaders = (await sessionFor(db, staff)).headers;
    const status = await inject(
      'GET',
      `/api/v1/admin/waivers/status?kind=event&booking_id=${booking.id}`,
      staffHeaders,
    );
    await inject('POST', '/api/v1/admin/waivers/resend', staffHeaders, {
      kind: 'party',
      booking_id: party.id,
    });
    const waiting = await db.execute<{ id: number }>(
      sql`insert into waitlist_entries (company_id, parent_id, event_id, session_id, date, places)
          values (${a.id}, ${parent.id}, ${event.id}, ${session.id}, ${FUTURE_MONDAY}, 1) returning id`,
    );
    const mail = await t.database.db.execute<{ id: number }>(
      sql`select id from mail_outbox where company_id = ${a.id} order by id limit 1`,
    );
    const { coach } = await createCoach(db, a.id);
    const {
      sessions: classSessionRows,
      termClass,
      term,
    } = await createClassWithSessions(db, a.id, {
      coachId: coach.id,
      dates: ['2030-01-08'],
    });
    const makeupPlace = await db.execute<{ id: number }>(
      sql`insert into class_enrolments (company_id, term_class_id, child_id, kind, session_id)
          values (${a.id}, ${termClass.id}, ${child.id}, 'makeup', ${classSessionRows[0]!.id}) returning id`,
    );
    const lessonDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const lesson = await createConfirmedLesson(db, a.id, {
      parentId: parent.id,
      slot: await createPrivateSlot(db, a.id, { coachId: coach.id, date: lessonDate }),
      date: lessonDate,
      childIds: [child.id],
    });
    const [registrationForm] = await db
      .insert(registrationForms)
      .values({ companyId: a.id, key: 'walker', name: 'Walker form' })
      .returning();
    const [anomaly] = await db
      .insert(registrationAnomalies)
      .values({
        companyId: a.id,
        kind: 'payment_failed',
        parentId: parent.id,
        detail: 'The card was declined.',
      })
      .returning();
    // An issued invoice of company A's parent with a credit note against it.
    const invoice = await db.execute<{ id: number }>(
      sql`insert into invoices (company_id, parent_id, kind, status, number, code, buyer_name, buyer_email, gst_registered, issued_on, due_on, total, gst)
        values (${a.id}, ${parent.id}, 'one_off', 'issued', 1, 'INV-000001', 'Walker Parent', 'walker@example.test', true, '2030-01-01', '2030-01-15', 11000, 1000) returning id`,
    );
    const creditNote = await db.execute<{ id: number }>(
      sql`insert into credit_notes (company_id, invoice_id, parent_id, number, code, amount, gst, reason, issued_on)
        values (${a.id}, ${invoice.rows[0]!.id}, ${parent.id}, 1, 'CN-000001', 1100, 100, 'Walker', '2030-01-02') returning id`,
    );
    // A re-enrolment run of company A (its terms' ids are what the rollover routes carry).
    const rollover = await db.execute<{ id: number }>(
      sql`insert into rollovers (company_id, from_term_id, to_term_id, deadline, status)
        values (${a.id}, ${term.id}, ${term.id}, now() + interval '30 days', 'done') returning id`,
    );
    // A finished term billing run of company A.
    const billingRun = await db.execute<{ id: number }>(
      sql`insert into billing_runs (company_id, term_id, status) values (${a.id}, ${term.id}, 'done') returning id`,
    );
    // A uniform size with stock and a paid uniform order of company A's parent.
    const uniformSize = await db.execute<{ id: number }>(
      sql`with type as (insert into uniform_types (company_id, name, price) values (${a.id}, 'Walker leotard', 4500) returning id)
        insert into uniform_sizes (company_id, uniform_type_id, name, stock) select ${a.id}, id, 'Child 8', 5 from type returning id`,
    );
    const uniformOrder = await db.execute<{ id: number }>(
      sql`insert into uniform_orders (company_id, parent_id, child_id, reference, code, status, paid_how, subtotal, amount_due)
        values (${a.id}, ${parent.id}, ${child.id}, 'walker-uniform', 'UO-WALK1', 'confirmed', 'card', 4500, 4500) returning id`,
    );
    // A flag on company A's child and a task for its family (features/students/flags, features/tasks).
    const flagged = await db.execute<{ id: number }>(
      sql`with f as (insert into flags (company_id, name) values (${a.id}, 'Asthma') returning id)
        insert into flag_assignments (company_id, flag_id, child_id, applied_by_id)
        select ${a.id}, f.id, ${child.id}, ${parent.id} from f returning id`,
    );
    const familyTask = await db.execute<{ id: number }>(
      sql`insert into tasks (company_id, title, assignee_role, parent_id)
        values (${a.id}, 'Upload the plan', 'family', ${parent.id}) returning id`,
    );
    // A lead of company A (features/crm).
    const contact = await db.execute<{ id: number }>(
      sql`insert into contacts (company_id, full_name, email, source, stage)
        values (${a.id}, 'Walker Lead', 'walker-lead@example.test', 'Walk-in', 'New') returning id`,
    );
    // An import run of company A (features/import).
    const importRun = await db.execute<{ id: number }>(
      sql`insert into import_runs (company_id, total_rows, created_by) values (${a.id}, 1, ${staff.id}) returning id`,
    );
    // A live calendar feed of company A (features/calendar-feeds).
    const calendarFeed = await db.execute<{ id: number }>(
      sql`insert into calendar_feeds (company_id, kind, token_hash) values (${a.id}, 'company', 'walker-feed') returning id`,
    );
    // A scheduled mass mail of company A (features/communications).
    const massMail = await db.execute<{ id: number }>(
      sql`insert into mass_mails (company_id, subject, body, filter, status, send_at)
        values (${a.id}, 'Walker news', '<p>Hi</p>', '{}', 'scheduled', now() + interval '30 days') returning id`,
    );
    ids = {
      massMail: massMail.rows[0]!.id,
      contact: contact.rows[0]!.id,
      calendarFeed: calendarFeed.rows[0]!.id,
      importRun: importRun.rows[0]!.id,
      flagged: flagged.rows[0]!.id,
      task: familyTask.rows[0]!.id,
      uniformSize: uniformSize.rows[0]!.id,
      uniformOrder: uniformOrder.rows[0]!.id,
      billingRun: billingRun.rows[0]!.id,
      invoice: invoice.rows[0]!.id,
      creditNote: creditNote.rows[0]!.id,
      rollover: rollover.rows[0]!.id,
      registrationForm: registrationForm!.id,
      anomaly: anomaly!.id,
      privateLesson: lesson.id,
      classSession: classSessionRows[0]!.id,
      makeupPlace: makeupPlace.rows[0]!.id,
      termClass: termClass.id,
      term: term.id,
      coach: coach.id,
      company: a.id,
      parent: parent.id,
      waitlistEntry: waiting.rows[0]!.id,
      staffUser: staff.id,
      mail: mail.rows[0]!.id,
      event: event.id,
      child: child.id,
      payment: payment.id,
      signedWaiver: status.json().people[0].signed_waiver_id,
      booking: booking.id,
      bookingReference: booking.reference,
      party: party.id,
      partyReference: party.reference,
    };
  });
  afterAll(() => t.close());

  it('knows every route, and each declares an access the permission table has', () => {
    const known = new Set<Access>(['public', 'signed-in', ...(Object.keys(permissions) as Access[])]);
    expect(t.app.routeAccess.length).toBeGreaterThan(300);
    for (const route of t.app.routeAccess)
      expect(known.has(route.access), `${route.method} ${route.url}`).toBe(true);
  });

  it('refuses to start with a route that declares no access', async () => {
    const app = Fastify();
    app.decorate('deps', {} as never);
    await app.register(authPlugin);
    await app.after();
    expect(() => app.get('/api/v1/forgotten', async () => 'open')).toThrow(
      'Route GET /api/v1/forgotten does not declare config.access',
    );
    await app.close();
  });

  /**
   * Dispatch routes are open to the resource's readers; each action then needs its own permission.
   * The walker dispatches 'delete', which needs the resource's write permission.
   */
  const mayDelete = (url: string, role: Role) => {
    if (!url.endsWith('/dispatch/:action')) return true;
    const resource = allResources().find((r) => `${collectionPath(r)}/dispatch/:action` === url)!;
    return resource.deleteMode === 'none' || roleHas(role, resource.permissions.write);
  };

  it(
    'answers anonymous, a parent and each staff role exactly as the permission table says, and never 5xx',
    async () => {
      const checked: string[] = [];
      for (const route of t.app.routeAccess) {
        const url = route.url
          .replace(':parentId', String(ids.event))
          .replace(':id', '1')
          .replace(':action', 'delete')
          .replace(':provider', 'stripe')
          .replace('*', 'missing.png');
        const anonymous = await inject(route.method, url);
        expect(anonymous.statusCode, `anonymous ${route.method} ${url}`).toBeLessThan(500);
        if (route.access !== 'public')
          expect(anonymous.statusCode, `anonymous ${route.method} ${url}`).toBe(401);
        for (const role of roles) {
          const response = await inject(route.method, url, asRole[role]);
          const label = `${role} ${route.method} ${url} → ${response.statusCode} ${response.body.slice(0, 120)}`;
          expect(response.statusCode, label).toBeLessThan(500);
          const allowed =
            (route.access === 'public' || route.access === 'signed-in' || roleHas(role, route.access)) &&
            mayDelete(route.url, role);
          if (allowed) expect([401, 403], label).not.toContain(response.statusCode);
          else expect(response.statusCode, label).toBe(403);
          checked.push(label);
          // Logging out ends the session the next calls need.
          if (route.url === '/rest/logout')
            asRole[role] = (await sessionFor(t.database.db, userOf[role])).headers;
        }
      }
      expect(checked.length).toBe(t.app.routeAccess.length * roles.length);
    },
    EVERY_ROUTE_TIMEOUT,
  );

  /**
   * Another company's staff and parents, calling with company A's ids: 404 (or 403 where their
   * role may not call the route at all), and nothing changes. Engine resources are walked the same
   * way with a real row each in platform/resources/engine.int.test.ts.
   */
  it(
    'answers 404 to another company for every id-bearing route, and changes nothing',
    async () => {
      // The engine's routes of each resource: its collection path plus these endings.
      const engineEndings = [
        '',
        '/meta',
        '/options',
        '/add',
        '/dispatch/:action',
        '/upload',
        '/:id',
        '/:id/edit',
      ];
      const engineRoutes = new Set(
        allResources().flatMap((r) => engineEndings.map((ending) => `${collectionPath(r)}${ending}`)),
      );
      const own = t.app.routeAccess.filter((r) => /:id|:parentId/.test(r.url) && !engineRoutes.has(r.url));
      const calls: Record<string, [url: string, payload?: object]> = {
        'GET /api/v1/admin/users/:id': [`/api/v1/admin/users/${ids.staffUser}`],
        // The operator's customer pages: no company role may call them (403), whichever company.
        'GET /api/v1/operators/customers/:id': [`/api/v1/operators/customers/${ids.company}`],
        'POST /api/v1/operators/customers/:id/approve': [
          `/api/v1/operators/customers/${ids.company}/approve`,
        ],
        'POST /api/v1/operators/customers/:id/decline': [
          `/api/v1/operators/customers/${ids.company}/decline`,
        ],
        'POST /api/v1/operators/customers/:id/suspend': [
          `/api/v1/operators/customers/${ids.company}/suspend`,
          { reason: 'Walker' },
        ],
        'POST /api/v1/operators/customers/:id/reactivate': [
          `/api/v1/operators/customers/${ids.company}/reactivate`,
        ],
        'POST /api/v1/operators/customers/:id/support': [
          `/api/v1/operators/customers/${ids.company}/support`,
          { reason: 'Walker' },
        ],
        'POST /api/v1/admin/users/:id': [`/api/v1/admin/users/${ids.staffUser}`, { role: 'companycoach' }],
        'GET /api/v1/admin/mail/:id': [`/api/v1/admin/mail/${ids.mail}`],
        'GET /api/v1/admin/events/:id/availability': [`/api/v1/admin/events/${ids.event}/availability`],
        'GET /api/v1/students/children/:id': [`/api/v1/students/children/${ids.child}`],
        'POST /api/v1/students/children/:id': [
          `/api/v1/students/children/${ids.child}`,
          { first_name: 'Hijack', last_name: 'X', dob: '2018-01-01' },
        ],
        'GET /api/v1/admin/students/:id': [`/api/v1/admin/students/${ids.child}`],
        'POST /api/v1/admin/students/:id': [
          `/api/v1/admin/students/${ids.child}`,
          { first_name: 'Hijack', last_name: 'X', dob: '2018-01-01' },
        ],
        'GET /api/v1/students/payments/:id/receipt': [`/api/v1/students/payments/${ids.payment}/receipt`],
        'GET /api/v1/students/waivers/:id/pdf': [`/api/v1/students/waivers/${ids.signedWaiver}/pdf`],
        'GET /api/v1/admin/signed-waivers/:id/pdf': [`/api/v1/admin/signed-waivers/${ids.signedWaiver}/pdf`],
        'GET /api/v1/admin/parents/:id/sections': [`/api/v1/admin/parents/${ids.parent}/sections`],
        'GET /api/v1/admin/parents/:id/statement': [`/api/v1/admin/parents/${ids.parent}/statement`],
        'GET /api/v1/admin/parents/:id/statement/pdf': [`/api/v1/admin/parents/${ids.parent}/statement/pdf`],
        'POST /api/v1/admin/families/:id/erase': [
          `/api/v1/admin/families/${ids.parent}/erase`,
          { confirmation: 'ERASE', reason: 'Asked to be forgotten' },
        ],
        'GET /api/v1/admin/events/:parentId/bookings/:id/sections': [
          `/api/v1/admin/events/${ids.event}/bookings/${ids.booking}/sections`,
        ],
        'POST /api/v1/admin/cover/:id': [`/api/v1/admin/cover/${ids.classSession}`, { coach_id: ids.coach }],
        'GET /api/v1/admin/coaches/:id/sections': [`/api/v1/admin/coaches/${ids.coach}/sections`],
        'GET /api/v1/admin/registration-forms/:id/sections': [
          `/api/v1/admin/registration-forms/${ids.registrationForm}/sections`,
        ],
        'POST /api/v1/admin/registration-anomalies/:id/resolve': [
          `/api/v1/admin/registration-anomalies/${ids.anomaly}/resolve`,
        ],
        'GET /api/v1/admin/roll/:id': [`/api/v1/admin/roll/${ids.classSession}`],
        'GET /api/v1/admin/term-classes/:id/generate': [
          `/api/v1/admin/term-classes/${ids.termClass}/generate`,
        ],
        'POST /api/v1/admin/term-classes/:id/generate': [
          `/api/v1/admin/term-classes/${ids.termClass}/generate`,
        ],
        'GET /api/v1/admin/term-classes/:id/class-students': [
          `/api/v1/admin/term-classes/${ids.termClass}/class-students`,
        ],
        'POST /api/v1/admin/term-classes/:id/class-students': [
          `/api/v1/admin/term-classes/${ids.termClass}/class-students`,
          { child_id: ids.child },
        ],
        'POST /api/v1/admin/term-classes/:id/class-students/transfer': [
          `/api/v1/admin/term-classes/${ids.termClass}/class-students/transfer`,
          { enrolment_id: 1, to_class_id: ids.termClass, from: '2030-01-08' },
        ],
        'POST /api/v1/admin/term-classes/:id/class-students/withdraw': [
          `/api/v1/admin/term-classes/${ids.termClass}/class-students/withdraw`,
          { enrolment_id: 1, from: '2030-01-08' },
        ],
        'POST /api/v1/admin/term-classes/:id/class-students/offer': [
          `/api/v1/admin/term-classes/${ids.termClass}/class-students/offer`,
          { waitlist_id: 1 },
        ],
        'GET /api/v1/admin/terms/:id/generate': [`/api/v1/admin/terms/${ids.term}/generate`],
        'GET /api/v1/admin/terms/:id/rollovers': [`/api/v1/admin/terms/${ids.term}/rollovers`],
        'POST /api/v1/admin/terms/:id/rollovers/preview': [
          `/api/v1/admin/terms/${ids.term}/rollovers/preview`,
          { to_term_id: ids.term, deadline_date: '2030-01-01', deadline_time: '18:00' },
        ],
        'POST /api/v1/admin/terms/:id/rollovers': [
          `/api/v1/admin/terms/${ids.term}/rollovers`,
          { to_term_id: ids.term, deadline_date: '2030-01-01', deadline_time: '18:00' },
        ],
        'GET /api/v1/admin/rollovers/:id': [`/api/v1/admin/rollovers/${ids.rollover}`],
        'GET /api/v1/admin/terms/:id/billing': [`/api/v1/admin/terms/${ids.term}/billing`],
        'POST /api/v1/admin/terms/:id/billing-runs': [`/api/v1/admin/terms/${ids.term}/billing-runs`],
        'GET /api/v1/admin/billing-runs/:id': [`/api/v1/admin/billing-runs/${ids.billingRun}`],
        'POST /api/v1/admin/rollovers/:id/undo': [`/api/v1/admin/rollovers/${ids.rollover}/undo`],
        'POST /api/v1/admin/terms/:id/generate': [`/api/v1/admin/terms/${ids.term}/generate`],
        'GET /api/v1/admin/terms/:id/copy-classes': [`/api/v1/admin/terms/${ids.term}/copy-classes`],
        'POST /api/v1/admin/terms/:id/copy-classes': [`/api/v1/admin/terms/${ids.term}/copy-classes`],
        'POST /api/v1/admin/roll/:id/marks': [
          `/api/v1/admin/roll/${ids.classSession}/marks`,
          { child_id: ids.child, status: 'present' },
        ],
        'GET /api/v1/admin/invoices/:id': [`/api/v1/admin/invoices/${ids.invoice}`],
        'GET /api/v1/admin/invoices/:id/pdf': [`/api/v1/admin/invoices/${ids.invoice}/pdf`],
        'POST /api/v1/admin/invoices/:id/issue': [`/api/v1/admin/invoices/${ids.invoice}/issue`],
        'POST /api/v1/admin/invoices/:id/email': [`/api/v1/admin/invoices/${ids.invoice}/email`],
        'POST /api/v1/admin/invoices/:id/credit-notes': [
          `/api/v1/admin/invoices/${ids.invoice}/credit-notes`,
          { amount: 100, reason: 'Hijack' },
        ],
        'POST /api/v1/admin/invoices/:id/void': [
          `/api/v1/admin/invoices/${ids.invoice}/void`,
          { reason: 'Hijack' },
        ],
        'GET /api/v1/admin/credit-notes/:id/pdf': [`/api/v1/admin/credit-notes/${ids.creditNote}/pdf`],
        'GET /api/v1/students/invoices/:id/pdf': [`/api/v1/students/invoices/${ids.invoice}/pdf`],
        'POST /api/v1/students/my-waitlist/:id/leave': [
          `/api/v1/students/my-waitlist/${ids.waitlistEntry}/leave`,
        ],
        'POST /api/v1/students/classes/sessions/:id/absence': [
          `/api/v1/students/classes/sessions/${ids.classSession}/absence`,
          { child_id: ids.child },
        ],
        'POST /api/v1/students/classes/sessions/:id/absence/undo': [
          `/api/v1/students/classes/sessions/${ids.classSession}/absence/undo`,
          { child_id: ids.child },
        ],
        'POST /api/v1/students/classes/makeups/:id/cancel': [
          `/api/v1/students/classes/makeups/${ids.makeupPlace}/cancel`,
        ],
        'POST /api/v1/students/private-lessons/:id/cancel': [
          `/api/v1/students/private-lessons/${ids.privateLesson}/cancel`,
        ],
        'DELETE /api/v1/admin/flagged/:id': [`/api/v1/admin/flagged/${ids.flagged}`],
        'POST /api/v1/admin/tasks/:id/done': [`/api/v1/admin/tasks/${ids.task}/done`],
        'GET /api/v1/admin/contacts/:id': [`/api/v1/admin/contacts/${ids.contact}`],
        'PUT /api/v1/admin/contacts/:id': [
          `/api/v1/admin/contacts/${ids.contact}`,
          { full_name: 'Hijack', email: 'h@example.test', source: 'Walk-in', stage: 'New' },
        ],
        'POST /api/v1/admin/contacts/:id/notes': [
          `/api/v1/admin/contacts/${ids.contact}/notes`,
          { body: 'Hijack' },
        ],
        'POST /api/v1/admin/contacts/:id/convert': [
          `/api/v1/admin/contacts/${ids.contact}/convert`,
          { children: [] },
        ],
        'POST /api/v1/admin/contacts/:id/link': [
          `/api/v1/admin/contacts/${ids.contact}/link`,
          { parent_id: ids.parent },
        ],
        'GET /api/v1/admin/import/runs/:id': [`/api/v1/admin/import/runs/${ids.importRun}`],
        'DELETE /api/v1/admin/integrations/google/feeds/:id': [
          `/api/v1/admin/integrations/google/feeds/${ids.calendarFeed}`,
        ],
        'POST /api/v1/students/tasks/:id/done': [`/api/v1/students/tasks/${ids.task}/done`],
        'GET /api/v1/communications/mass-mails/:id': [`/api/v1/communications/mass-mails/${ids.massMail}`],
        'POST /api/v1/communications/mass-mails/:id/cancel': [
          `/api/v1/communications/mass-mails/${ids.massMail}/cancel`,
        ],
        'POST /api/v1/admin/private-lessons/:id/cancel': [
          `/api/v1/admin/private-lessons/${ids.privateLesson}/cancel`,
          { refund_choice: 'none' },
        ],
        'POST /api/v1/admin/uniform-orders/:id/collect': [
          `/api/v1/admin/uniform-orders/${ids.uniformOrder}/collect`,
        ],
        'POST /api/v1/admin/uniform-orders/:id/cancel': [
          `/api/v1/admin/uniform-orders/${ids.uniformOrder}/cancel`,
        ],
      };
      // A new id-bearing route must be added above (with a real id of company A) to pass.
      expect(own.map((r) => `${r.method} ${r.url}`).sort()).toEqual(Object.keys(calls).sort());

      // Routes that carry ids in the query or body.
      const queryCalls: [method: string, url: string, payload?: object][] = [
        ['GET', `/api/v1/admin/waivers/status?kind=event&booking_id=${ids.booking}`],
        ['GET', `/api/v1/admin/waivers/status?kind=party&booking_id=${ids.party}`],
        ['POST', '/api/v1/admin/waivers/resend', { kind: 'event', booking_id: ids.booking }],
        ['GET', `/api/v1/birthday-party/update-guest?id=${ids.partyReference}&authhash=${foreign.authhash}`],
        [
          'POST',
          `/api/v1/birthday-party/update-guest?id=${ids.partyReference}&authhash=${foreign.authhash}`,
          {},
        ],
        ['GET', `/api/v1/students/events/insurances?event_id=${ids.event}`],
        ['GET', `/api/v1/students/classes/makeup-options?child_id=${ids.child}`],
        ['POST', '/api/v1/students/classes/makeups', { child_id: ids.child, session_id: ids.classSession }],
        ['GET', `/api/v1/admin/payments/record/options?family=${ids.parent}`],
        ['GET', `/api/v1/admin/payments/record/options?invoice=${ids.invoice}`],
        ['GET', `/api/v1/admin/payments/record/options?party_booking=${ids.party}`],
        [
          'POST',
          '/api/v1/admin/payments/record',
          {
            parent_id: ids.parent,
            method: 'cash',
            amount: 100,
            received_on: '2024-01-02',
            party_booking_id: ids.party,
          },
        ],
        ['POST', '/api/v1/admin/integrations/google/feeds', { kind: 'coach', coach_id: ids.coach }],
        ['GET', `/api/v1/admin/flagged?child_id=${ids.child}`],
        ['GET', `/api/v1/admin/flagged?parent_id=${ids.parent}`],
        ['POST', '/api/v1/admin/flagged', { flag_id: 1, child_id: ids.child }],
        ['POST', '/api/v1/admin/tasks', { title: 'Hijack', assignee: 'family', parent_id: ids.parent }],
        ['GET', `/api/v1/students/invoice-payment?invoice=${ids.invoice}`],
        [
          'POST',
          '/api/v1/students/invoice-payment/checkout',
          { invoice_id: ids.invoice, choice: 'full', amount: 0 },
        ],
        ['GET', `/api/v1/students/cancellations/preview?kind=party&party_booking_id=${ids.party}`],
        ['POST', '/api/v1/students/cancellations', { kind: 'party', party_booking_id: ids.party }],
        ['POST', '/api/v1/students/cancellations', { kind: 'enrolment', enrolment_id: ids.makeupPlace }],
        ['GET', `/api/v1/students/uniform-orders/charges?size_id=${ids.uniformSize}&quantity=1`],
        [
          'POST',
          '/api/v1/students/uniform-orders/checkout',
          {
            child_id: ids.child,
            size_id: ids.uniformSize,
            quantity: 1,
            pay: 'card',
            amount: 4500,
            accept_terms: true,
          },
        ],
        [
          'POST',
          '/api/v1/admin/uniform-orders',
          { parent_id: ids.parent, child_id: ids.child, size_id: ids.uniformSize, quantity: 1, pay: 'cash' },
        ],
        // Merging company A's family or child into another company's (or a staff id) answers 404.
        ['POST', '/api/v1/admin/merge/families', { from_parent_id: ids.parent, to_parent_id: ids.staffUser }],
        [
          'POST',
          '/api/v1/admin/merge/families',
          { from_parent_id: ids.parent, to_parent_id: ids.staffUser, preview: true },
        ],
        [
          'POST',
          '/api/v1/admin/merge/children',
          { from_child_id: ids.child, to_child_id: Number(ids.child) + 1, preview: true },
        ],
      ];

      const before = await fingerprint();
      for (const [key, [url, payload]] of Object.entries(calls)) {
        const method = key.split(' ')[0]!;
        for (const [who, headers] of Object.entries(foreign)) {
          if (who === 'authhash') continue;
          const response = await inject(method, url, headers as Headers, payload);
          expect([403, 404], `${who} ${method} ${url} → ${response.statusCode}`).toContain(
            response.statusCode,
          );
          const route = t.app.routeAccess.find((r) => `${r.method} ${r.url}` === key)!;
          const role: Role = who === 'admin' ? 'companyadmin' : 'student';
          if (route.access === 'signed-in' || (route.access !== 'public' && roleHas(role, route.access)))
            expect(response.statusCode, `${who} ${method} ${url}`).toBe(404);
        }
      }
      for (const [method, url, payload] of queryCalls) {
        const headers =
          url.includes('/students/') || url.includes('update-guest') ? foreign.parent : foreign.admin;
        const response = await inject(method, url, headers, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
      // Public pages by another company's authhash: nothing of company A.
      const eventPage = await inject(
        'GET',
        `/api/v1/booking?e=${Buffer.from(`${ids.company}|${ids.event}`).toString('hex')}&authhash=${foreign.authhash}`,
      );
      expect(eventPage.statusCode).toBe(404);
      const waiverPage = await inject(
        'GET',
        `/api/v1/event-booking/waiver?id=${ids.bookingReference}&authhash=${foreign.authhash}`,
      );
      expect(waiverPage.json()).toMatchObject({
        valid: false,
        message: waiverMessages.invalidLink,
        people: [],
      });
      const partyWaiver = await inject(
        'GET',
        `/api/v1/birthday-party/waiver?id=${ids.partyReference}&authhash=${foreign.authhash}`,
      );
      expect(partyWaiver.json()).toMatchObject({ valid: false, people: [] });

      expect(await fingerprint()).toEqual(before);
    },
    EVERY_ROUTE_TIMEOUT,
  );
});
