import { errorResponse, formResponse } from '@tumble/contracts/http';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookableEvent } from '../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../testing/factories.ts';
import { createTestApp, type TestContext } from '../testing/harness.ts';
import { createPartySetup } from '../testing/party-fixtures.ts';
import { UNREACHABLE_PAYMENT_KEYS } from '../testing/payment-env.ts';
import {
  createChild,
  createConfirmedBooking,
  createConfirmedParty,
  createWaiverTemplate,
} from '../testing/waiver-fixtures.ts';
import { BROKEN_TEXT_MESSAGE, CONTROL_CHARACTER_MESSAGE, OUT_OF_RANGE_MESSAGE } from './input-guard.ts';
import { allResources, collectionPath } from './resources/define.ts';

/** These walk every route (several hundred now), each a real request: minutes on a busy machine, not seconds. */
const EVERY_ROUTE_TIMEOUT = 300_000;

/**
 * Hostile input to every write endpoint (issue 8, point 2): whatever arrives, the answer is never
 * a 5xx, always one of the documented shapes, and a refused request writes nothing. Afterwards no
 * stored rich text carries script, event handlers or javascript: URLs.
 */

/** Values an attacker, a confused browser or a broken client might send. */
const hostile = fc.oneof(
  fc.constantFrom(
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">x</a>',
    '<svg onload=alert(1)><p>text</p></svg>',
    '<p style="x" onclick="steal()">hi</p><iframe src="//evil"></iframe>',
    "'; drop table users; --",
    "1' or '1'='1",
    '../../etc/passwd',
    '%00',
    '\u0000',
    '👩‍👩‍👧‍👦🎂',
    'Zoë Ångström-Ñúñez',
    '\u202e\u0647\u0644\u0627',
    '2025-02-30',
    '2025-13-01',
    '0000-00-00',
    '31/02/2025',
    '99:99',
    '',
    ' ',
    'null',
    'NaN',
    '1e309',
    '-1',
    '0x7fffffff',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 5000, maxLength: 9000 }),
  fc.integer(),
  fc.constantFrom(-1, 0, -99999, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e308, 0.5, -0.0001),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 10 })), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** Names that many endpoints read, so random bodies reach past "required" checks. */
const COMMON_NAMES = [
  'id',
  'ids',
  'values',
  'name',
  'title',
  'email',
  'password',
  'password2',
  'full_name',
  'phone',
  'date',
  'dob',
  'first_name',
  'last_name',
  'quantity',
  'amount',
  'children',
  'student',
  'booked',
  'waiting',
  'coupon_code',
  'accept_terms',
  'slot_id',
  'child_id',
  // A child's profile (the parent's child form and the staff Students screen).
  'medical_notes',
  'allergies',
  'school',
  'emergency_contacts',
  'consent',
  // Erasing a family (features/company-data): the typed word ('reason' is below).
  'confirmation',
  // A uniform order (features/uniforms): the size and how it is paid.
  'size_id',
  'pay',
  'signature',
  'agree',
  'kind',
  // The accounting settings (features/billing/accounting).
  'sales_account_code',
  // The Mailchimp connection (features/communications/mailchimp).
  'api_key',
  'list_id',
  'sync_from',
  'booking_id',
  'legal_name',
  'abn',
  'gst_registered',
  'bsb',
  'next_invoice_number',
  'parent_id',
  'lines',
  'due_on',
  'reason',
  // A reminder rule (features/communications/reminders).
  'enabled',
  'subject',
  'body',
  // Recording a payment and paying an invoice online.
  'method',
  'received_on',
  'reference',
  'invoice_ids',
  'party_booking_id',
  'invoice_id',
  'choice',
  // A refund's values (payments, party bookings).
  'destination',
  'username',
  // The parent's autopay switch (features/billing/saved-card.routes.ts).
  'autopay',
  // Applying a flag and adding a task (features/students/flags.routes.ts, features/tasks).
  'flag_id',
  'note',
  'notes',
  'due_date',
  'assignee',
  // A company's modules and plan (platform/installation).
  'key',
  'plan_id',
  // A company's Square location (platform/payments/connections).
  'location_id',
  // Merging families and children (features/students/merge.routes.ts).
  'from_parent_id',
  'to_parent_id',
  'from_child_id',
  'to_child_id',
  'preview',
  // A contact, the CRM settings and the public enquiry (features/crm).
  'source',
  'stage',
  'follow_up_on',
  'interest',
  'message',
  'sources',
  'stages',
  // System emails and email settings (features/settings/email-settings.routes.ts).
  'subject',
  'body',
  'from_name',
  'reply_to',
  'footer',
  'logo',
  // Mass mail (features/communications/mass-mail.routes.ts).
  'filter',
  'marketing',
  'send_at',
  'attachment',
];

describe('bad input to every write endpoint', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let admin: Record<string, string>;
  let parent: Record<string, string>;
  /** The installation's routes (plans, customers) are an operator's (decision 018). */
  let operator: Record<string, string>;
  let ids: {
    event: number;
    otherStaff: number;
    child: number;
    party: number;
    booking: string;
    partyRef: string;
    slot: number;
  };

  /** Every table's row count, in one query. */
  const rowCounts = async () => {
    const tables = (
      await t.database.db.execute<{ name: string }>(
        sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('auth_sessions', 'auth_throttle') order by 1`,
      )
    ).rows.map((r) => r.name);
    const query = tables
      .map((name) => `select '${name}' as name, count(*)::int as n from "${name}"`)
      .join(' union all ');
    const rows = (await t.database.db.execute<{ name: string; n: number }>(sql.raw(query))).rows;
    return Object.fromEntries(rows.map((r) => [r.name, r.n]));
  };

  beforeAll(async () => {
    t = await createTestApp(UNREACHABLE_PAYMENT_KEYS);
    const { db } = t.database;
    company = await createCompany(db, { paymentMethod: 'test' });
    admin = (await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' }))).headers;
    const parentUser = await createUser(db, company.id, { role: 'student' });
    parent = (await sessionFor(db, parentUser)).headers;
    operator = (await sessionFor(db, await createUser(db, company.id, { role: 'operator' }))).headers;
    const otherStaff = await createUser(db, company.id, { role: 'companystaff' });
    const { event } = await createBookableEvent(db, company.id);
    await createWaiverTemplate(db, company.id);
    const child = await createChild(db, company.id, parentUser.id);
    const { booking } = await createConfirmedBooking(db, company.id, {
      parentId: parentUser.id,
      eventId: event.id,
      childIds: [child.id],
    });
    const setup = await createPartySetup(db, company.id);
    const { party } = await createConfirmedParty(db, company.id, {
      parentId: parentUser.id,
      slotId: setup.morning.id,
      childId: child.id,
      date: new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10),
    });
    ids = {
      event: event.id,
      otherStaff: otherStaff.id,
      child: child.id,
      party: party.id,
      booking: booking.reference,
      partyRef: party.reference,
      slot: setup.morning.id,
    };
  });
  afterAll(() => t.close());

  it(
    'never answers 5xx or an undocumented shape, and a refused request writes nothing',
    async () => {
      const fieldsOf = new Map(
        allResources().map((r) => [
          collectionPath(r),
          [...Object.keys(r.fields), ...Object.keys(r.actions ?? {})],
        ]),
      );
      const writes = t.app.routeAccess.filter(
        (r) =>
          (r.method === 'POST' || r.method === 'DELETE') &&
          // Signing out would end the session the rest of the walk needs.
          r.url !== '/rest/logout',
      );
      expect(writes.length).toBeGreaterThan(100);
      let requests = 0;
      for (const route of writes) {
        const base = [...fieldsOf.keys()].find((b) => route.url === b || route.url.startsWith(`${b}/`));
        const names = [...new Set([...COMMON_NAMES, ...(base ? fieldsOf.get(base)! : [])])];
        const url =
          route.url
            .replace(':parentId', String(ids.event))
            .replace('/users/:id', `/users/${ids.otherStaff}`)
            .replace('/children/:id', `/children/${ids.child}`)
            .replace('/admin/students/:id', `/admin/students/${ids.child}`)
            .replace(':kind', 'password-reset')
            .replace(':provider', 'square')
            .replace(':id', '1')
            .replace(':action', 'delete') +
          `?authhash=${company.authhash}&id=${route.url.includes('birthday-party') ? ids.partyRef : ids.booking}`;
        const headers = route.access === 'public' ? {} : route.access === 'parent.self' ? parent : admin;
        await fc.assert(
          fc.asyncProperty(
            fc.dictionary(fc.constantFrom(...names), hostile, { maxKeys: 8 }),
            async (body) => {
              const before = await rowCounts();
              const response = await t.app.inject({
                method: route.method as 'POST',
                url,
                headers,
                payload: route.method === 'DELETE' ? undefined : body,
              });
              requests++;
              const label = `${route.method} ${url} ${JSON.stringify(body).slice(0, 300)} → ${response.statusCode} ${response.body.slice(0, 200)}`;
              expect(response.statusCode, label).toBeLessThan(500);
              const json = String(response.headers['content-type'] ?? '').includes('application/json')
                ? (response.json() as { valid?: boolean; success?: boolean })
                : undefined;
              const refused = response.statusCode >= 400 || json?.valid === false || json?.success === false;
              if (response.statusCode >= 400) expect(errorResponse.safeParse(json).success, label).toBe(true);
              else if (json?.valid !== undefined)
                expect(formResponse.safeParse(json).success, label).toBe(true);
              if (refused) expect(await rowCounts(), label).toEqual(before);
            },
          ),
          { numRuns: 6, seed: 20261121 + requests },
        );
      }
      expect(requests).toBeGreaterThan(600);
    },
    EVERY_ROUTE_TIMEOUT,
  );

  it('never stores rich text with script, event handlers or javascript: URLs', async () => {
    const richColumns = allResources().flatMap((resource) =>
      Object.entries(resource.fields)
        .filter(([, def]) => def.type === 'richtext')
        .map(([name]) => ({ table: resource.table, column: resource.fieldColumns[name]! })),
    );
    expect(richColumns.length).toBeGreaterThan(3);
    // Write the nastiest HTML into every rich-text field through the API first.
    const nasty =
      '<p onclick="x()">Hi<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">go</a><iframe src="//evil"></iframe></p>';
    const stored: string[] = [];
    type FormField = {
      name: string;
      type: string;
      required: boolean;
      value: unknown;
      options?: { value: string }[];
    };
    /** The form's values, with plain sample values in required fields left empty. */
    const formValues = async (url: string) => {
      const fields = (await t.app.inject({ method: 'GET', url, headers: admin })).json()
        .fields as FormField[];
      const sample: Record<string, unknown> = { date: '2030-01-06', time: '09:00', number: 1, money: 100 };
      return Object.fromEntries(
        fields.map((f) => {
          const empty = f.value === null || f.value === '' || f.value === undefined;
          if (!f.required || !empty) return [f.name, f.value];
          if (f.type === 'select') return [f.name, f.options?.[0]?.value];
          return [f.name, sample[f.type] ?? 'Bad input test'];
        }),
      );
    };
    for (const resource of allResources()) {
      const rich = Object.entries(resource.fields).filter(([, def]) => def.type === 'richtext');
      if (rich.length === 0 || resource.parent) continue;
      const base = collectionPath(resource);
      // Edit the company's first row when it has one, otherwise add one from the form's defaults.
      const first = (await t.app.inject({ method: 'GET', url: `${base}?per_page=1`, headers: admin })).json()
        .data?.[0];
      const target = first ? `${base}/${first.id}` : base;
      const values = await formValues(first ? `${base}/${first.id}/edit` : `${base}/add`);
      for (const [name] of rich) values[name] = nasty;
      const saved = await t.app.inject({ method: 'POST', url: target, headers: admin, payload: values });
      if (saved.json().valid) stored.push(resource.name);
    }
    // Enough of them really stored the HTML (sanitised) for the scan below to mean something.
    expect(stored.length).toBeGreaterThanOrEqual(3);
    for (const { table, column } of richColumns) {
      const rows = (await t.database.db.select({ html: column }).from(table)) as { html: string | null }[];
      for (const { html } of rows) {
        expect(html ?? '').not.toMatch(/<script|<iframe|\son\w+\s*=|javascript:/i);
      }
    }
  });
  /** Every guarded route with its placeholders filled in, and the headers its access needs. */
  const everyRoute = () =>
    t.app.routeAccess
      .filter((r) => r.url !== '/rest/logout')
      .map((route) => ({
        method: route.method as 'GET' | 'POST',
        url: route.url
          .replace(':parentId', String(ids.event))
          .replace('/users/:id', `/users/${ids.otherStaff}`)
          .replace('/children/:id', `/children/${ids.child}`)
          .replace('/admin/students/:id', `/admin/students/${ids.child}`)
          .replace(':provider', 'square')
          .replace(':id', '1')
          .replace(':action', 'delete'),
        headers:
          route.access === 'public'
            ? {}
            : route.access === 'parent.self'
              ? parent
              : route.access === 'installation.operate'
                ? operator
                : admin,
      }));
  const takesBody = (method: string) => ['POST', 'PUT', 'PATCH'].includes(method);
  /** Payment routes read their bodies as raw bytes (webhook signatures) and parse them themselves. */
  const rawBody = (url: string) => url.startsWith('/integrations/');
  /** A route the signed-in role may not call is refused before its input is read. */
  const wrongRole = (response: { statusCode: number; json(): unknown }) =>
    response.statusCode === 403 && (response.json() as { reason?: string }).reason === 'wrong_role';

  it(
    'refuses NUL and other control characters in any query, path or body value with 400 (issue 21 point 22)',
    async () => {
      const acl = await t.app.inject({ method: 'GET', url: '/rest/acl?authhash=%00' });
      expect(acl.statusCode).toBe(400);
      expect(acl.json()).toEqual({ message: CONTROL_CHARACTER_MESSAGE });
      const waiver = await t.app.inject({
        method: 'POST',
        url: `/api/v1/event-booking/waiver/check?authhash=${company.authhash}`,
        payload: { id: 'abc\u0000', child_id: ids.child },
      });
      expect(waiver.statusCode).toBe(400);
      expect(waiver.json()).toEqual({ message: CONTROL_CHARACTER_MESSAGE });

      const controls = ['\u0000', '\u0001', '\u0008', '\u000b', '\u001b', '\u007f'];
      const before = await rowCounts();
      for (const [i, route] of everyRoute().entries()) {
        const c = controls[i % controls.length]!;
        const inQuery = await t.app.inject({
          method: route.method,
          url: `${route.url}?authhash=${company.authhash}&id=${encodeURIComponent(`x${c}`)}`,
          headers: route.headers,
          payload: takesBody(route.method) ? {} : undefined,
        });
        const label = `${route.method} ${route.url} ${JSON.stringify(c)}`;
        // The company a public call names is looked up (module check, session) before the route
        // runs: a NUL there once reached PostgreSQL and answered 500.
        const inAuthhash = await t.app.inject({
          method: route.method,
          url: `${route.url}?authhash=${encodeURIComponent(`${company.authhash}${c}`)}`,
          headers: route.headers,
          payload: takesBody(route.method) ? {} : undefined,
        });
        expect(inAuthhash.statusCode, `authhash ${label}`).toBe(400);
        expect(inAuthhash.json(), `authhash ${label}`).toEqual({ message: CONTROL_CHARACTER_MESSAGE });
        if (wrongRole(inQuery)) continue;
        expect(inQuery.statusCode, `query ${label}`).toBe(400);
        expect(inQuery.json(), `query ${label}`).toEqual({ message: CONTROL_CHARACTER_MESSAGE });
        if (!takesBody(route.method)) continue;
        const inBody = await t.app.inject({
          method: route.method,
          url: `${route.url}?authhash=${company.authhash}`,
          headers: route.headers,
          payload: rawBody(route.url)
            ? { session: `s${c}`, id: `x${c}`, card_number: `4242${c}` }
            : { name: `Zoë${c}`, nested: { list: ['ok', `a${c}b`] } },
        });
        const body = `body ${label} → ${inBody.statusCode} ${inBody.body.slice(0, 200)}`;
        if (rawBody(route.url)) {
          expect(inBody.statusCode, body).toBeLessThan(500);
          continue;
        }
        expect(inBody.statusCode, body).toBe(400);
        expect(inBody.json(), body).toEqual({ message: CONTROL_CHARACTER_MESSAGE });
      }
      expect(await rowCounts()).toEqual(before);
      // A header is read before the route too (the session's bearer token).
      const inHeader = await t.app.inject({
        method: 'GET',
        url: `/rest/acl?authhash=${company.authhash}`,
        headers: { ...admin, 'x-requested-with': 'a\u0001b' },
      });
      expect(inHeader.statusCode).toBe(400);
      expect(inHeader.json()).toEqual({ message: CONTROL_CHARACTER_MESSAGE });
      // Tab, line feed and carriage return are ordinary text and pass.
      const tabbed = await t.app.inject({ method: 'GET', url: `/rest/acl?authhash=${company.authhash}%09` });
      expect(tabbed.statusCode).toBeLessThan(500);
      expect(tabbed.json()).not.toEqual({ message: CONTROL_CHARACTER_MESSAGE });
    },
    EVERY_ROUTE_TIMEOUT,
  );

  it(
    "answers 400, never 500, for integers beyond PostgreSQL's 32-bit range (issue 21 point 23)",
    async () => {
      const invitation = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/wait-list/invitation/check?authhash=${company.authhash}&w=x&b=-2147483649`,
      });
      expect(invitation.statusCode).toBe(400);
      expect(invitation.json()).toEqual({ message: OUT_OF_RANGE_MESSAGE });
      const party = await t.app.inject({
        method: 'POST',
        url: `/api/v1/birthday-party/booking/checkout?authhash=${company.authhash}`,
        headers: parent,
        payload: {
          slot_id: ids.slot,
          date: new Date(Date.now() + 50 * 86_400_000).toISOString().slice(0, 10),
          quantity: 12,
          amount: 10000,
          student: { id: 2147483648 },
          accept_terms: true,
        },
      });
      expect(party.statusCode).toBe(400);
      expect(errorResponse.parse(party.json()).message).toMatch(/./);

      // Every route, with the bounds either side of 32 bits in its path, query and body.
      const before = await rowCounts();
      const bounds = ['2147483647', '2147483648', '-2147483648', '-2147483649', '9007199254740993', '1e10'];
      for (const [i, route] of everyRoute().entries()) {
        const n = bounds[i % bounds.length]!;
        const url = route.url.replace(/\/1(\/|$)/, `/${n}$1`);
        const response = await t.app.inject({
          method: route.method,
          url: `${url}?authhash=${company.authhash}&id=${n}&b=${n}&w=${n}&event_id=${n}&page=${n}`,
          headers: route.headers,
          payload: takesBody(route.method)
            ? {
                id: Number(n),
                event_id: Number(n),
                slot_id: Number(n),
                child_id: n,
                student: { id: Number(n) },
                ids: [Number(n)],
              }
            : undefined,
        });
        const label = `${route.method} ${url} ${n} → ${response.statusCode} ${response.body.slice(0, 200)}`;
        expect(response.statusCode, label).toBeLessThan(500);
      }
      expect(await rowCounts()).toEqual(before);
    },
    EVERY_ROUTE_TIMEOUT,
  );

  it(
    'answers every call with a lone surrogate or an overlong string in its authhash, ids or body without a 5xx',
    async () => {
      const broken = await t.app.inject({
        method: 'POST',
        url: `/api/v1/event-booking/waiver/check?authhash=${company.authhash}`,
        payload: { id: 'abc\ud800', child_id: ids.child },
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual({ message: BROKEN_TEXT_MESSAGE });
      // A route that reads neither (a delete by its path's id) still does its work: only the answer is checked.
      // %ED%A0%80 is U+D800 as UTF-8: a lone surrogate, not a character.
      const values = ['%ED%A0%80', `x%ED%A0%80${'%F0%9F'}`, 'a'.repeat(10_000)];
      for (const [i, route] of everyRoute().entries()) {
        const v = values[i % values.length]!;
        const response = await t.app.inject({
          method: route.method,
          url: `${route.url}?authhash=${v}&id=${v}&b=${v}&e=${v}&f=${v}`,
          headers: route.headers,
          payload: takesBody(route.method)
            ? {
                name: '\ud800',
                email: `${'x'.repeat(5000)}@example.com`,
                id: '\udfff',
                note: 'y'.repeat(100_000),
              }
            : undefined,
        });
        const label = `${route.method} ${route.url} ${v.slice(0, 20)} → ${response.statusCode} ${response.body.slice(0, 200)}`;
        expect(response.statusCode, label).toBeLessThan(500);
      }
    },
    EVERY_ROUTE_TIMEOUT,
  );

  it(
    'answers malformed JSON on every route that takes a body with 400 and a message (issue 21 point 28)',
    async () => {
      const before = await rowCounts();
      const bodies = ['{"name": ', '{name: 1}', '[1, 2', '"unterminated', '{"a":1}}', '\u0000'];
      for (const [i, route] of everyRoute()
        .filter((r) => takesBody(r.method))
        .entries()) {
        const response = await t.app.inject({
          method: route.method,
          url: `${route.url}?authhash=${company.authhash}`,
          headers: { ...route.headers, 'content-type': 'application/json' },
          payload: bodies[i % bodies.length],
        });
        const label = `${route.method} ${route.url} → ${response.statusCode} ${response.body.slice(0, 200)}`;
        if (wrongRole(response)) continue;
        expect(response.statusCode, label).toBe(400);
        expect(errorResponse.safeParse(response.json()).success, label).toBe(true);
      }
      expect(await rowCounts()).toEqual(before);
    },
    EVERY_ROUTE_TIMEOUT,
  );

  it('six simultaneous saves of the same form all succeed or refuse clearly, never 500 (issue 21 point 28)', async () => {
    type FormField = { name: string; value: unknown };
    let edited = 0;
    for (const resource of allResources()) {
      if (resource.parent) continue;
      const base = collectionPath(resource);
      const list = await t.app.inject({ method: 'GET', url: `${base}?per_page=1`, headers: admin });
      const first = list.statusCode === 200 ? list.json().data?.[0] : undefined;
      if (!first) continue;
      const form = await t.app.inject({ method: 'GET', url: `${base}/${first.id}/edit`, headers: admin });
      if (form.statusCode !== 200) continue;
      const values = Object.fromEntries((form.json().fields as FormField[]).map((f) => [f.name, f.value]));
      const saves = await Promise.all(
        Array.from({ length: 6 }, () =>
          t.app.inject({ method: 'POST', url: `${base}/${first.id}`, headers: admin, payload: values }),
        ),
      );
      for (const saved of saves) {
        expect(saved.statusCode, `${base}: ${saved.body.slice(0, 300)}`).toBeLessThan(500);
      }
      edited++;
    }
    expect(edited).toBeGreaterThanOrEqual(3);

    // The party's guest list, saved from six tabs at once.
    const guests = {
      guest_1_child_name: 'Oli',
      guest_1_parent_email: 'ola@example.test',
      guest_2_child_name: 'Pip',
      guest_2_parent_email: 'pip.parent@example.test',
    };
    const saves = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/birthday-party/update-guest?id=${ids.partyRef}&authhash=${company.authhash}`,
          headers: parent,
          payload: guests,
        }),
      ),
    );
    for (const saved of saves) expect(saved.statusCode, saved.body.slice(0, 300)).toBeLessThan(500);
  });
});
