import type { Role } from '@tumble/contracts/auth';
import { roles } from '@tumble/contracts/auth';
import { asc, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refunds } from '../../features/billing/ledger.tables.ts';
import { bookings } from '../../features/bookings/bookings.tables.ts';
import { enrolmentAdjustments } from '../../features/classes/adjustments.tables.ts';
import { classEnrolments, classSessions } from '../../features/classes/classes.tables.ts';
import { partyBookings } from '../../features/parties/parties.tables.ts';
import { children } from '../../features/students/students.tables.ts';
import { createCompany, createUser, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { plans } from '../installation/installation.tables.ts';
import { payments } from '../payments/payments.tables.ts';
import { roleHas } from '../permissions.ts';
import { allResources, ancestorsOf, collectionPath, fillPath, getResource, type Resource } from './define.ts';
import type { FieldDef } from './fields.ts';

type Headers = Record<string, string>;

/** Values that make each resource's cross-field checks pass where a generic sample would not. */
const SAMPLE_OVERRIDES: Record<string, Record<string, unknown>> = {
  events: { start_date: '2030-01-06', end_date: '2030-01-17', age_start: 5, age_end: 12 },
  sessions: { start_date: '2030-01-06', end_date: '2030-01-10', start_time: '09:00', end_time: '12:00' },
  'birthday-pricing': { base_price: 30000, deposit: 10000 },
  'nsw-settings': { code_format: '^[0-9]{8}$' },
  surcharges: { kind: 'percent', percent: 1.5 },
  venues: { postcode: '2150' },
  coaches: { wwcc_verified_on: '2026-01-05', wwcc_expires_on: '2030-01-06' },
  'embed-origins': { origin: 'https://www.example.test' },
  // A sample payment terms row is for events; a form takes terms for classes.
  'registration-forms': { payment_terms_id: null },
};

const PDF = Buffer.from('%PDF-1.4\n%test\n');

function multipart(file: Buffer, filename: string) {
  const boundary = '----engine-test';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('resource engine: every resource in the registry', () => {
  let t: TestContext;
  let companyA: number;
  const roleHeaders = {} as Record<Role, Headers>;
  let adminA: Headers;
  let adminB: Headers;
  /** Resource name → id of a row of company A (and the parent id for nested ones). */
  const rowsA = new Map<string, { id: number; parentId: number | null }>();

  /** The collection path under company A's row of each ancestor. */
  const path = (resource: Resource, _parentId?: number | null) =>
    fillPath(
      collectionPath(resource),
      ancestorsOf(resource).map((a) => rowsA.get(a.name)!.id),
    );

  async function sampleValue(name: string, def: FieldDef, resource: Resource): Promise<unknown> {
    const override = SAMPLE_OVERRIDES[resource.name]?.[name];
    if (override !== undefined) return override;
    if (def.default !== undefined && def.type !== 'boolean') return def.default;
    switch (def.type) {
      case 'text':
      case 'textarea':
        return name === 'code' ? `CODE${rowsA.size}` : `Sample ${name}`;
      case 'richtext':
        return '<p>Sample <strong>text</strong></p>';
      case 'number':
        return def.min ?? 1;
      case 'money':
        return 2500;
      case 'percent':
        return 1.5;
      case 'date':
        return '2030-01-06';
      case 'time':
        return '09:00';
      case 'datetime':
        return '2030-01-06T09:00:00.000Z';
      case 'boolean':
        return true;
      case 'select':
        return def.options![0]!.value;
      case 'multiselect':
        return def.reference ? [(await rowOf(def.reference)).id] : [def.options![0]!.value];
      case 'reference':
        return (await rowOf(def.reference!)).id;
      case 'email':
        return 'someone@example.test';
      case 'phone':
        return '02 9000 0000';
      case 'colour':
        return '#1e90ff';
      case 'file':
      case 'image': {
        const upload = await t.app.inject({
          method: 'POST',
          url: `${path(resource, rowsA.get(resource.parent?.resource ?? '')?.id ?? null)}/upload`,
          headers: { ...adminA, ...multipart(PDF, 'what-to-bring.pdf').headers },
          payload: multipart(PDF, 'what-to-bring.pdf').payload,
        });
        expect(upload.statusCode, upload.body).toBe(200);
        return upload.json().key;
      }
    }
  }

  /**
   * Rows of read-only resources (made by parents' bookings, never by staff forms), written
   * directly: name → insert returning the id.
   */
  const READ_ONLY_ROWS: Record<string, (parentId: number | null) => Promise<number>> = {
    parents: async () => (await createUser(t.database.db, companyA, { role: 'student' })).id,
    staff: async () => (await createUser(t.database.db, companyA, { role: 'companycoach' })).id,
    // Credits and refunds due come from staff changes to enrolments (class-students.service.ts).
    'class-payments': async () => {
      const parentId = (await rowOf('parents')).id;
      const termClassId = (await rowOf('term-classes')).id;
      const [child] = await t.database.db
        .insert(children)
        .values({ companyId: companyA, parentId, firstName: 'Ada', lastName: 'Credit', dob: '2022-01-01' })
        .returning();
      const [place] = await t.database.db
        .insert(classEnrolments)
        .values({
          companyId: companyA,
          termClassId,
          childId: child!.id,
          kind: 'enrolled',
          withdrawnFrom: '2030-01-07',
        })
        .returning();
      const [row] = await t.database.db
        .insert(enrolmentAdjustments)
        .values({
          companyId: companyA,
          parentId,
          childId: child!.id,
          childName: 'Ada Credit',
          termClassId,
          enrolmentId: place!.id,
          kind: 'refund_due',
          amount: 2000,
          reason: 'Withdrawn from 07/01/2030',
        })
        .returning();
      return row!.id;
    },
    // Sessions are generated from their class, never typed in.
    'class-sessions': async (termClassId) => {
      const [row] = await t.database.db
        .insert(classSessions)
        .values({
          companyId: companyA,
          termClassId: termClassId!,
          slotDate: '2030-01-07',
          date: '2030-01-07',
          startTime: '09:00',
          durationMinutes: 60,
        })
        .returning();
      return row!.id;
    },
    bookings: async (eventId) => {
      const [row] = await t.database.db
        .insert(bookings)
        .values({
          companyId: companyA,
          parentId: (await rowOf('parents')).id,
          eventId: eventId!,
          reference: `ref-${Date.now()}`,
          code: `BK-E${Date.now() % 100000}`,
          status: 'confirmed',
          quantity: 1,
          pricing: {},
          total: 4500,
          provider: 'test',
        })
        .returning();
      return row!.id;
    },
    'party-bookings': async () => {
      const slot = await rowOf('slots');
      const [child] = await t.database.db
        .insert(children)
        .values({
          companyId: companyA,
          parentId: (await rowOf('parents')).id,
          firstName: 'Kid',
          lastName: 'A',
          dob: '2019-01-01',
        })
        .returning();
      const [row] = await t.database.db
        .insert(partyBookings)
        .values({
          companyId: companyA,
          parentId: (await rowOf('parents')).id,
          slotId: slot.id,
          date: '2030-01-05',
          childId: child!.id,
          reference: `party-${Date.now()}`,
          code: `BP-E${Date.now() % 100000}`,
          status: 'confirmed',
          guests: 12,
          pricing: {},
          total: 44500,
          deposit: 10000,
          balance: 34500,
          provider: 'test',
        })
        .returning();
      return row!.id;
    },
    payments: async () => {
      const booking = await rowOf('bookings');
      const [row] = await t.database.db
        .insert(payments)
        .values({
          companyId: companyA,
          purchaseKind: 'event' as const,
          purchaseId: booking.id,
          provider: 'test',
          providerRef: `test_cs_${Date.now()}`,
          amount: 4500,
          status: 'refund_due',
        })
        .returning();
      return row!.id;
    },
    // The installation's plans: no company role may write them through the API.
    plans: async () => {
      const [row] = await t.database.db
        .insert(plans)
        .values({ name: `Plan ${Date.now()}`, monthlyPrice: 0 })
        .returning();
      return row!.id;
    },
    // Refunds are made from a payment (billing/refunds.service.ts).
    refunds: async () => {
      const payment = await rowOf('payments');
      const [row] = await t.database.db
        .insert(refunds)
        .values({
          companyId: companyA,
          paymentId: payment.id,
          amount: 100,
          reason: 'Sample',
          destination: 'card',
          status: 'pending',
          provider: 'test',
          failureReason: 'Not sent: the provider was down.',
        })
        .returning();
      return row!.id;
    },
    'audit-log': async () => {
      const [row] = await t.database.db
        .insert(auditLog)
        .values({
          companyId: companyA,
          actorName: 'Alex',
          action: 'update',
          entity: 'coupons',
          summary: 'x: 1 → 2',
        })
        .returning();
      return row!.id;
    },
  };

  /** Creates (once) a row of `name` for company A through the API, parents and references first. */
  async function rowOf(name: string): Promise<{ id: number; parentId: number | null }> {
    const existing = rowsA.get(name);
    if (existing) return existing;
    const resource = getResource(name)!;
    const parentId = resource.parent ? (await rowOf(resource.parent.resource)).id : null;
    if (resource.canCreate === false || resource.scope === 'installation') {
      const direct = READ_ONLY_ROWS[name];
      if (!direct) throw new Error(`read-only resource ${name} needs a row in READ_ONLY_ROWS`);
      const created = { id: await direct(parentId), parentId };
      rowsA.set(name, created);
      return created;
    }
    const body: Record<string, unknown> = {};
    for (const [field, def] of Object.entries(resource.fields)) {
      if (!def.readOnly) body[field] = await sampleValue(field, def, resource);
    }
    const response = await t.app.inject({
      method: 'POST',
      url: path(resource, parentId),
      headers: adminA,
      payload: body,
    });
    expect(response.json(), `create ${name}`).toMatchObject({ valid: true });
    const [row] = await t.database.db
      .select({ id: resource.idColumn })
      .from(resource.table)
      .where(resource.companyColumn ? eq(resource.companyColumn, companyA) : undefined)
      .orderBy(asc(resource.idColumn))
      .limit(1);
    const created = { id: row!.id as number, parentId };
    rowsA.set(name, created);
    return created;
  }

  /** Every row company A has in the resource's table, to prove an outsider changed nothing. */
  const snapshot = (resource: Resource) =>
    t.database.db
      .select()
      .from(resource.table)
      .where(resource.companyColumn ? eq(resource.companyColumn, companyA) : undefined)
      .orderBy(asc(resource.idColumn));

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    companyA = (await createCompany(db)).id;
    const companyB = (await createCompany(db)).id;
    for (const role of roles) {
      const user = await createUser(db, companyA, { role, password: 'a long enough password' });
      roleHeaders[role] = (await signIn(t.app, user)).headers;
    }
    adminA = roleHeaders.companyadmin;
    adminB = (
      await signIn(
        t.app,
        await createUser(db, companyB, { role: 'companyadmin', password: 'a long enough password' }),
      )
    ).headers;
    for (const resource of allResources()) await rowOf(resource.name);
  });
  afterAll(() => t.close());

  it('has every resource of the issue registered, with routes', () => {
    const names = allResources().map((r) => r.name);
    for (const expected of [
      'venues',
      'rooms',
      'restricted-dates',
      'events',
      'sessions',
      'tickets',
      'price-tiers',
      'contacts',
      'downloads',
      'insurances',
      'coupons',
      'promotional-codes',
      'nsw-settings',
      'surcharges',
      'payment-terms',
      'payment-methods',
      'waivers',
      'slots',
      'birthday-pricing',
      'party-invitation-settings',
      'parents',
      'bookings',
      'payments',
      'party-bookings',
      'guests',
      'audit-log',
    ]) {
      expect(names).toContain(expected);
    }
    for (const resource of allResources()) {
      expect(
        t.app.routeAccess.some((r) => r.url === `${collectionPath(resource)}/meta`),
        resource.name,
      ).toBe(true);
    }
  });

  it('creates a row of every resource through the API (sample values pass validation)', () => {
    expect(rowsA.size).toBe(allResources().length);
  });

  describe.each(allResources().map((r) => [r.name, r] as const))('%s', (_name, resource) => {
    it("another company's admin gets 404 for every endpoint with company A's ids, and nothing changes", async () => {
      const { id, parentId } = rowsA.get(resource.name)!;
      const base = path(resource, parentId);
      const before = await snapshot(resource);
      const body: Record<string, unknown> = {};
      for (const [field, def] of Object.entries(resource.fields))
        if (!def.readOnly) body[field] = await sampleValue(field, def, resource);

      const calls: { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: unknown }[] = [
        { method: 'GET', url: `${base}/${id}` },
        { method: 'GET', url: `${base}/${id}/edit` },
        { method: 'POST', url: `${base}/${id}`, payload: body },
        { method: 'DELETE', url: `${base}/${id}` },
      ];
      for (const action of Object.keys(resource.actions ?? {}).concat(
        resource.deleteMode === 'none' ? [] : ['delete'],
      )) {
        if (resource.actions?.[action]?.screen) continue;
        calls.push({ method: 'POST', url: `${base}/dispatch/${action}`, payload: { ids: [id] } });
      }
      if (resource.parent) {
        // The parent itself is foreign: even listing or adding under it is refused.
        calls.push(
          { method: 'GET', url: base },
          { method: 'GET', url: `${base}/add` },
          { method: 'POST', url: base, payload: body },
        );
      }
      // An installation's rows are no company's: every company user is refused outright.
      const refused = resource.scope === 'installation' ? 403 : 404;
      for (const call of calls) {
        const response = await t.app.inject({ ...call, headers: adminB } as InjectOptions);
        expect(response.statusCode, `${call.method} ${call.url}: ${response.body}`).toBe(refused);
      }
      if (!resource.parent && resource.scope !== 'installation') {
        const list = await t.app.inject({ method: 'GET', url: base, headers: adminB });
        expect(list.statusCode).toBe(200);
        expect(list.json().data.map((r: { id: number }) => r.id)).not.toContain(id);
      }
      expect(await snapshot(resource)).toEqual(before);
    });

    it('gives each role exactly what the definition allows', async () => {
      const { id, parentId } = rowsA.get(resource.name)!;
      const base = path(resource, parentId);
      for (const role of roles) {
        const headers = roleHeaders[role];
        const canRead = roleHas(role, resource.permissions.read);
        const canWrite = roleHas(role, resource.permissions.write);
        const expectStatus = async (
          allowed: boolean,
          method: 'GET' | 'POST',
          url: string,
          payload?: unknown,
        ) => {
          const response = await t.app.inject({ method, url, headers, payload } as InjectOptions);
          if (allowed) expect(response.statusCode, `${role} ${method} ${url}: ${response.body}`).toBe(200);
          else expect(response.statusCode, `${role} ${method} ${url}`).toBe(403);
        };
        await expectStatus(canRead, 'GET', `${base}/meta`);
        await expectStatus(canRead, 'GET', base);
        await expectStatus(canRead, 'GET', `${base}/${id}`);
        // Read-only resources have no forms: allowed roles get 404, others 403.
        const formStatus = async (
          allowed: boolean,
          method: 'GET' | 'POST',
          url: string,
          exists: boolean,
          payload?: unknown,
        ) => {
          const response = await t.app.inject({ method, url, headers, payload } as InjectOptions);
          expect(response.statusCode, `${role} ${method} ${url}`).toBe(allowed ? (exists ? 200 : 404) : 403);
        };
        await formStatus(canWrite, 'GET', `${base}/${id}/edit`, resource.canEdit !== false);
        // An empty body: allowed roles get validation errors (200, valid false), others 403.
        await formStatus(canWrite, 'POST', base, resource.canCreate !== false, {});
        if (canRead) {
          const meta = (await t.app.inject({ method: 'GET', url: `${base}/meta`, headers })).json();
          expect(meta.canWrite).toBe(canWrite);
          expect(meta.canEdit).toBe(canWrite && resource.canEdit !== false);
          for (const [name, action] of Object.entries(resource.actions ?? {})) {
            const allowed = roleHas(role, action.permission ?? resource.permissions.write);
            expect(
              meta.actions.some((a: { name: string }) => a.name === name),
              `${role} sees ${name}`,
            ).toBe(allowed);
          }
        }
      }
    });
  });
});
