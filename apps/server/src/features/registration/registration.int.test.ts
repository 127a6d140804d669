import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { anomalyMessages, registrationFormMessages as say } from '@tumble/contracts/registration-forms';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { type CompanyRow, createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild, createWaiverTemplate } from '../../testing/waiver-fixtures.ts';
import { classWaitlist } from '../classes/class-waitlist.tables.ts';
import { NO_LONGER_WAITING } from './anomalies.service.ts';
import { recordAnomaly } from './registration.service.ts';
import { embedOrigins, registrationAnomalies, registrationForms } from './registration.tables.ts';

type Headers = Record<string, string>;
type FormJson = { valid: boolean; error?: { element: { name: string; messages: string[] }[] } };

/** The messages a form response gives each field. */
const fieldErrors = (json: FormJson) =>
  Object.fromEntries((json.error?.element ?? []).map((e) => [e.name, e.messages.join(' ')]));

let t: TestContext;
let companyA: CompanyRow;
let companyB: CompanyRow;
let staffA: Headers;
let adminA: Headers;
let coachA: Headers;
let adminB: Headers;
let parentA: { id: number };

const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
  t.app.inject({ method, url, headers, payload: method === 'POST' ? (payload ?? {}) : undefined });

beforeAll(async () => {
  // A built SPA of one page, so the registration page answers 200 as in production.
  const webDist = await mkdtemp(path.join(os.tmpdir(), 'tumble-web-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Tumble</title>');
  t = await createTestApp({ WEB_DIST: webDist });
  const { db } = t.database;
  companyA = await createCompany(db);
  companyB = await createCompany(db);
  staffA = (await sessionFor(db, await createUser(db, companyA.id, { role: 'companystaff' }))).headers;
  adminA = (await sessionFor(db, await createUser(db, companyA.id, { role: 'companyadmin' }))).headers;
  coachA = (await sessionFor(db, await createUser(db, companyA.id, { role: 'companycoach' }))).headers;
  adminB = (await sessionFor(db, await createUser(db, companyB.id, { role: 'companyadmin' }))).headers;
  parentA = await createUser(db, companyA.id, { role: 'student', fullName: 'Pat Parent' });
});
afterAll(() => t.close());

describe('registration forms (admin resource)', () => {
  const save = (payload: object, headers = staffA, id?: number) =>
    call('POST', `/api/v1/admin/registration-forms${id ? `/${id}` : ''}`, headers, payload);
  const formsOf = (companyId: number) =>
    t.database.db
      .select()
      .from(registrationForms)
      .where(eq(registrationForms.companyId, companyId))
      .orderBy(asc(registrationForms.id));

  it('makes the key from the name when blank, one per company, and the questions from the three fields', async () => {
    const first = await save({
      name: 'Term 1 Classes!',
      ask_questions: ['allergies', 'medical_notes', 'school'],
      required_questions: ['medical_notes'],
      custom_questions: 'Favourite apparatus?\nShoe size *\n\n',
      age_min_months: 36,
      age_max_months: 60,
      trials_offered: true,
    });
    expect(first.json(), first.body).toMatchObject({ valid: true });
    const second = await save({ name: 'Term 1 classes' });
    expect(second.json()).toMatchObject({ valid: true });
    // Another company may use the same key.
    expect((await save({ name: 'Term 1 Classes' }, adminB)).json()).toMatchObject({ valid: true });

    const [a1, a2] = await formsOf(companyA.id);
    expect(a1).toMatchObject({ key: 'term-1-classes', ageMinMonths: 36, ageMaxMonths: 60, payment: 'card' });
    expect(a2!.key).toBe('term-1-classes-2');
    expect((await formsOf(companyB.id))[0]!.key).toBe('term-1-classes');
    // Standard questions in the page's order, then the custom ones; a trailing * makes one required.
    expect(a1!.questions).toEqual([
      { key: 'medical_notes', label: 'Medical notes', kind: 'medical_notes', required: true },
      { key: 'allergies', label: 'Allergies', kind: 'allergies', required: false },
      { key: 'school', label: 'School', kind: 'school', required: false },
      { key: 'custom_1', label: 'Favourite apparatus?', kind: 'custom', required: false },
      { key: 'custom_2', label: 'Shoe size', kind: 'custom', required: true },
    ]);
  });

  it('refuses a taken key, ages out of order, a required question not asked, too many custom questions and a waiver for events only; nothing is written', async () => {
    const eventsWaiver = await createWaiverTemplate(t.database.db, companyA.id, { appliesTo: 'events' });
    const before = await formsOf(companyA.id);
    const answer = await save({
      name: 'Another',
      key: 'Term 1 classes',
      age_min_months: 60,
      age_max_months: 48,
      required_questions: ['school'],
      custom_questions: 'a\nb\nc\nd\ne\nf',
      waiver_id: eventsWaiver.id,
    });
    expect(answer.json().valid).toBe(false);
    expect(fieldErrors(answer.json())).toMatchObject({
      key: say.keyTaken,
      age_max_months: say.ageOrder,
      required_questions: say.requiredNotAsked,
      custom_questions: say.tooManyCustom,
      waiver_id: say.waiverNotForClasses,
    });
    expect(await formsOf(companyA.id)).toEqual(before);
    // Its own key is not "taken" when a form is saved again.
    const own = before[0]!;
    expect((await save({ name: own.name, key: own.key }, staffA, own.id)).json()).toMatchObject({
      valid: true,
    });
  });

  it('answers 404 to another company for a form’s id, and changes nothing', async () => {
    const [form] = await formsOf(companyA.id);
    for (const url of [
      `/api/v1/admin/registration-forms/${form!.id}`,
      `/api/v1/admin/registration-forms/${form!.id}/sections`,
    ])
      expect((await call('GET', url, adminB)).statusCode).toBe(404);
    expect((await save({ name: 'Hijacked' }, adminB, form!.id)).statusCode).toBe(404);
    expect((await formsOf(companyA.id))[0]!.name).toBe(form!.name);
  });

  it('shows the public link and the embed snippet on the form’s page', async () => {
    const [form] = await formsOf(companyA.id);
    const answer = await call('GET', `/api/v1/admin/registration-forms/${form!.id}/sections`, staffA);
    expect(answer.statusCode, answer.body).toBe(200);
    const rows = (answer.json() as { rows: { what: string; value: string }[] }[])[0]!.rows;
    expect(rows[0]).toMatchObject({
      what: 'Public link',
      value: `http://tumble.test/registration/?f=term-1-classes&authhash=${companyA.authhash}`,
    });
    expect(rows[1]!.value).toBe(
      `<script src="http://tumble.test/embed/registration.js" data-form="term-1-classes" data-authhash="${companyA.authhash}" async></script>`,
    );
  });
});

describe('embed origins and the registration page’s frame policy', () => {
  const addOrigin = (origin: string, headers = adminA) =>
    call('POST', '/api/v1/admin/embed-origins', headers, { origin });

  it('refuses what is not a website origin (paths, wildcards, plain http beyond localhost) and writes nothing', async () => {
    for (const bad of [
      'www.example.com',
      'http://www.example.com',
      'https://www.example.com/classes',
      'https://*.example.com',
      'https://example.com?x=1',
      'https://user:pw@example.com',
      "https://example.com 'unsafe-inline'",
      'javascript:alert(1)',
    ]) {
      const answer = await addOrigin(bad);
      expect(fieldErrors(answer.json()), bad).toEqual({ origin: say.originShape });
    }
    expect(await t.database.db.select().from(embedOrigins)).toEqual([]);
  });

  it('stores origins as browsers send them; staff (not administrators) may not change them', async () => {
    expect((await addOrigin('HTTPS://WWW.Gym-A.example.com.au/')).json()).toMatchObject({ valid: true });
    expect((await addOrigin('https://gym-a.example:443')).json()).toMatchObject({ valid: true });
    expect((await addOrigin('http://localhost:5173')).json()).toMatchObject({ valid: true });
    expect(fieldErrors((await addOrigin('https://www.gym-a.example.com.au')).json())).toEqual({
      origin: say.originTaken,
    });
    expect((await addOrigin('https://www.gym-b.example', adminB)).json()).toMatchObject({ valid: true });
    expect((await addOrigin('https://staff.example', staffA)).statusCode).toBe(403);
    const rows = await t.database.db
      .select({ origin: embedOrigins.origin })
      .from(embedOrigins)
      .where(eq(embedOrigins.companyId, companyA.id))
      .orderBy(asc(embedOrigins.origin));
    expect(rows.map((r) => r.origin)).toEqual([
      'http://localhost:5173',
      'https://gym-a.example',
      'https://www.gym-a.example.com.au',
    ]);
  });

  const frameAncestors = (csp: unknown) => /frame-ancestors ([^;]*)/.exec(String(csp))?.[1];

  it('lets exactly the company’s origins frame /registration/ (by its authhash), without a contradicting X-Frame-Options', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: `/registration/?f=term-1-classes&authhash=${companyA.authhash}&embed=1`,
    });
    expect(page.statusCode).toBe(200);
    expect(frameAncestors(page.headers['content-security-policy'])).toBe(
      "'self' http://localhost:5173 https://gym-a.example https://www.gym-a.example.com.au",
    );
    expect(page.headers['content-security-policy']).not.toContain('gym-b');
    expect(page.headers['x-frame-options']).toBeUndefined();
    // The rest of the policy is the app's.
    expect(page.headers['content-security-policy']).toContain("script-src 'self' https://js.stripe.com");

    const other = await t.app.inject({
      method: 'GET',
      url: `/registration/waiver/?id=x&authhash=${companyB.authhash}`,
    });
    expect(frameAncestors(other.headers['content-security-policy'])).toBe("'self' https://www.gym-b.example");
    // The parent's sign-in the embedded form sends a visitor to is framed the same way.
    const login = await t.app.inject({
      method: 'GET',
      url: `/admin/students/login?authhash=${companyB.authhash}&redirect=%2Fregistration%2F`,
    });
    expect(frameAncestors(login.headers['content-security-policy'])).toBe("'self' https://www.gym-b.example");
    expect(login.headers['x-frame-options']).toBeUndefined();
  });

  it('frames /registration/ only from itself for an unknown or missing authhash, and every other page as before', async () => {
    for (const url of ['/registration/?f=x&authhash=nobody', '/registration/?f=x', '/registration']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(frameAncestors(page.headers['content-security-policy']), url).toBe("'self'");
    }
    // A suspended company's page is still the app (it says bookings are closed), framed by itself.
    const suspended = await createCompany(t.database.db, { status: 'suspended' });
    const closed = await t.app.inject({
      method: 'GET',
      url: `/registration/?f=x&authhash=${suspended.authhash}`,
    });
    expect(closed.statusCode).toBe(200);
    expect(closed.headers['content-type']).toContain('text/html');
    expect(frameAncestors(closed.headers['content-security-policy'])).toBe("'self'");
    for (const url of [
      `/booking?authhash=${companyA.authhash}`,
      `/admin/login?authhash=${companyA.authhash}`,
      `/admin/students/children?authhash=${companyA.authhash}`,
      `/registrations?authhash=${companyA.authhash}`,
    ]) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(frameAncestors(page.headers['content-security-policy']), url).toBe("'self'");
      expect(page.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });

  it('serves the snippet’s script to other websites', async () => {
    const script = await t.app.inject({ method: 'GET', url: '/embed/registration.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(script.body).toContain("'/registration/?f='");
    // It trusts height messages only from our own origin and its own iframe.
    expect(script.body).toContain('event.origin !== ours || event.source !== frame.contentWindow');
  });
});

describe('registration anomalies', () => {
  const anomaliesOf = (companyId: number) =>
    t.database.db
      .select()
      .from(registrationAnomalies)
      .where(eq(registrationAnomalies.companyId, companyId))
      .orderBy(asc(registrationAnomalies.id));

  it('lists open anomalies first with the family, child, class and one action each', async () => {
    const { db } = t.database;
    const tenant = new Tenant(companyA.id);
    const child = await createChild(db, companyA.id, parentA.id, 'Ava');
    const { termClass } = await createClassWithSessions(db, companyA.id, {
      coachId: null,
      dates: ['2030-02-05', '2030-02-12'],
      name: 'Tuesday 4pm Kinder Gym',
    });
    await recordAnomaly(db, tenant, {
      formId: null,
      kind: 'age_outside_range',
      parentId: parentA.id,
      childId: child.id,
      termClassId: termClass.id,
      detail: 'Ava is 7 years 2 months; the class takes 3 to 5 years.',
    });
    await recordAnomaly(db, tenant, {
      formId: null,
      kind: 'payment_failed',
      parentId: parentA.id,
      detail: 'The card was declined.',
    });
    await recordAnomaly(db, new Tenant(companyB.id), {
      formId: null,
      kind: 'payment_failed',
      parentId: (await createUser(db, companyB.id, { role: 'student' })).id,
      detail: 'Company B’s',
    });
    const answer = await call('GET', '/api/v1/admin/registration-anomalies', staffA);
    expect(answer.statusCode).toBe(200);
    const list = answer.json();
    expect(list).toMatchObject({ total: 2, open: 2 });
    expect(list.data[0]).toMatchObject({
      kind: 'age_outside_range',
      family: 'Pat Parent',
      child: 'Ava Tester',
      class_name: 'Tuesday 4pm Kinder Gym',
      action: { name: 'accept', label: 'Accept' },
    });
    expect(list.data[1]).toMatchObject({
      kind: 'payment_failed',
      action: { name: 'dismiss', label: 'Dismiss' },
    });
    const filtered = await call('GET', '/api/v1/admin/registration-anomalies?kind=payment_failed', staffA);
    expect(filtered.json().data.map((r: { detail: string }) => r.detail)).toEqual(['The card was declined.']);
    expect((await call('GET', '/api/v1/admin/registration-anomalies/count', staffA)).json()).toEqual({
      open: 2,
    });
    // Coaches do not take these decisions.
    expect((await call('GET', '/api/v1/admin/registration-anomalies', coachA)).statusCode).toBe(403);
  });

  it('resolves once, recording who and when (audited); a second time answers 409; another company 404 with nothing changed', async () => {
    const [age] = await anomaliesOf(companyA.id);
    const foreign = await call('POST', `/api/v1/admin/registration-anomalies/${age!.id}/resolve`, adminB);
    expect(foreign.statusCode).toBe(404);
    expect((await anomaliesOf(companyA.id))[0]).toEqual(age);

    const first = await call('POST', `/api/v1/admin/registration-anomalies/${age!.id}/resolve`, staffA);
    expect(first.json()).toEqual({ success: true, message: 'Accepted: the enrolment stays.' });
    const [resolved] = await anomaliesOf(companyA.id);
    expect(resolved).toMatchObject({ status: 'resolved', resolution: 'accept' });
    expect(resolved!.resolvedBy).toBeTypeOf('number');
    expect(resolved!.resolvedAt).toBeInstanceOf(Date);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'registration-anomalies'), eq(auditLog.entityId, age!.id)));
    expect(audit).toMatchObject({ action: 'accept', userId: resolved!.resolvedBy });

    const again = await call('POST', `/api/v1/admin/registration-anomalies/${age!.id}/resolve`, staffA);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(anomalyMessages.alreadyResolved);
    expect((await anomaliesOf(companyA.id))[0]).toEqual(resolved);
    const list = (await call('GET', '/api/v1/admin/registration-anomalies?status=all', staffA)).json();
    // Open first, then resolved; a resolved one has no action left.
    expect(list.data.map((r: { status: string }) => r.status)).toEqual(['open', 'resolved']);
    expect(list.data[1]).toMatchObject({ action: null, resolution: 'accept' });
  });

  it('offers the waitlisted child a place ("Offer a place"), or closes it when the child no longer waits', async () => {
    const { db } = t.database;
    const tenant = new Tenant(companyA.id);
    const child = await createChild(db, companyA.id, parentA.id, 'Noah');
    const { termClass } = await createClassWithSessions(db, companyA.id, {
      coachId: null,
      dates: ['2030-03-05', '2030-03-12'],
    });
    const [entry] = await db
      .insert(classWaitlist)
      .values(
        tenant.values({
          termClassId: termClass.id,
          childId: child.id,
          parentId: parentA.id,
          householdKey: `parent:${parentA.id}`,
          source: 'public' as const,
        }),
      )
      .returning();
    for (const childId of [child.id, null]) {
      await recordAnomaly(db, tenant, {
        formId: null,
        kind: 'class_full_waitlisted',
        parentId: parentA.id,
        childId,
        termClassId: termClass.id,
        detail: 'The class filled meanwhile: Noah is on its waitlist.',
      });
    }
    const [offer, gone] = (await anomaliesOf(companyA.id)).slice(-2);
    const offered = await call('POST', `/api/v1/admin/registration-anomalies/${offer!.id}/resolve`, staffA);
    expect(offered.json(), offered.body).toEqual({
      success: true,
      message: 'A place was offered to the family.',
    });
    const [after] = await db.select().from(classWaitlist).where(eq(classWaitlist.id, entry!.id));
    expect(after!.status).toBe('offered');
    const closed = await call('POST', `/api/v1/admin/registration-anomalies/${gone!.id}/resolve`, staffA);
    expect(closed.json()).toEqual({ success: true, message: NO_LONGER_WAITING });
  });
});
