import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeEventCode } from '@tumble/contracts/booking';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../features/events/events.tables.ts';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild, createConfirmedBooking } from '../../testing/waiver-fixtures.ts';

/**
 * Issue 21 point 27: nothing reaches an HTML injection in the SPA (`ServerHtml`, or
 * `dangerouslySetInnerHTML` anywhere) unless the server sanitized it. The web sources are walked
 * for every injection; each must be listed here with the staff-written field it shows, and each
 * field gets hostile HTML through the admin API and must come back clean from the public API.
 */
const WEB_SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/src');
const HOSTILE =
  'Hi <img src=x onerror=alert(1)> <a href="javascript:alert(2)">x</a><script>alert(3)</script>';

/** `file: html expression` of every injection the web makes → the field it shows. */
const INJECTED: Record<string, string> = {
  'components/server-html.tsx: html': 'the component itself: every use below passes server-sanitized HTML',
  // A public page's top as the server drew it (names escaped, the intros sanitized), put back as it
  // already is in the document: tested in features/public-pages/public-pages.int.test.ts.
  'components/server-shell.tsx: markup':
    'features/public-pages (escaped text, events.intro, registration-forms.intro)',
  'features/booking/components/event-details.tsx: event.intro': 'events.intro',
  'features/booking/components/event-details.tsx: event.full': 'events.full',
  'features/waivers/waiver-page.tsx: waiver.body': 'waivers.body',
  'components/terms-card.tsx: props.html': 'payment-terms.content',
  'features/registration/registration-page.tsx: form.intro': 'registration-forms.intro',
  // Tested in features/communications/mass-mail.int.test.ts (hostile HTML in a mass mail's body).
  'features/communications/mass-mail-page.tsx: m.body': 'mass_mails.body',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every `<ServerHtml html={…}>` and `dangerouslySetInnerHTML={{ __html: … }}` in the web sources. */
function injections(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(WEB_SRC)) {
    const text = readFileSync(file, 'utf8');
    const relative = path.relative(WEB_SRC, file);
    for (const match of text.matchAll(/<ServerHtml\b[^>]*?\bhtml=\{([^}]+)\}/g))
      found.push(`${relative}: ${match[1]!.trim()}`);
    for (const match of text.matchAll(/dangerouslySetInnerHTML=\{\{\s*__html:\s*([^}]+?)\s*\}\}/g))
      found.push(`${relative}: ${match[1]!.trim()}`);
    if (/innerHTML\s*=|outerHTML\s*=|insertAdjacentHTML|document\.write/.test(text))
      found.push(`${relative}: a DOM HTML write`);
  }
  return found;
}

/** Every value under this key anywhere in a JSON answer. */
function valuesOf(json: unknown, key: string): unknown[] {
  if (Array.isArray(json)) return json.flatMap((item) => valuesOf(item, key));
  if (!json || typeof json !== 'object') return [];
  return Object.entries(json).flatMap(([k, v]) => (k === key ? [v] : valuesOf(v, key)));
}

const expectClean = (answer: string, what: string) => {
  expect(answer, what).toContain('Hi ');
  expect(answer, what).not.toMatch(/onerror|javascript:|<script/i);
};

describe('HTML the web injects is sanitized by the server', () => {
  let t: TestContext;
  let headers: Record<string, string>;
  let companyId: number;
  let authhash: string;

  /** Writes `value` into one field of a row through the admin API's own edit form. */
  async function writeField(resource: string, id: number, name: string, value: string) {
    const form = await t.app.inject({ method: 'GET', url: `/api/v1/admin/${resource}/${id}/edit`, headers });
    expect(form.statusCode, form.body).toBe(200);
    const body = Object.fromEntries(
      form.json().fields.map((f: { name: string; value: unknown }) => [f.name, f.value]),
    );
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/${resource}/${id}`,
      headers,
      payload: { ...body, [name]: value },
    });
    expect(saved.json(), `${resource}.${name}`).toMatchObject({ valid: true });
  }

  /** Creates a row through the admin API's add form, with these values over its defaults. */
  async function create(resource: string, values: Record<string, unknown>) {
    const form = await t.app.inject({ method: 'GET', url: `/api/v1/admin/${resource}/add`, headers });
    const body = Object.fromEntries(
      form.json().fields.map((f: { name: string; value: unknown }) => [f.name, f.value]),
    );
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/${resource}`,
      headers,
      payload: { ...body, ...values },
    });
    expect(saved.json(), resource).toMatchObject({ valid: true });
  }

  beforeAll(async () => {
    t = await createTestApp();
    const company = await createCompany(t.database.db);
    companyId = company.id;
    authhash = company.authhash;
    const admin = await createUser(t.database.db, companyId, {
      role: 'companyadmin',
      password: 'a long enough password',
    });
    headers = (await signIn(t.app, admin)).headers;
  });
  afterAll(() => t.close());

  it('knows every place the web injects HTML, and which field each shows', () => {
    expect([...new Set(injections())].sort()).toEqual(Object.keys(INJECTED).sort());
  });

  it("a registration form's introduction and the class payment terms (the public registration page)", async () => {
    await create('payment-terms', {
      name: 'Class terms',
      applies_to: 'classes',
      content: HOSTILE,
      is_default: true,
    });
    await create('registration-forms', { name: 'Hostile form', key: 'hostile', intro: HOSTILE });
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/v1/registration/form?authhash=${authhash}&f=hostile`,
    });
    expect(page.statusCode, page.body).toBe(200);
    expectClean(page.json().form.intro, 'registration form intro');
    expectClean(page.json().form.payment_terms, 'class payment terms');
  });

  it("an event's intro and description (the public booking page)", async () => {
    const { event } = await createBookableEvent(t.database.db, companyId);
    await writeField('events', event.id, 'intro', HOSTILE);
    await writeField('events', event.id, 'full', HOSTILE);
    // Stored sanitized (the field is rich text), not only cleaned on the way out.
    const stored = await t.app.inject({ method: 'GET', url: `/api/v1/admin/events/${event.id}`, headers });
    expectClean(stored.json().intro, 'stored intro');

    const page = await t.app.inject({
      method: 'GET',
      url: `/api/v1/booking?authhash=${authhash}&e=${encodeEventCode(companyId, event.id)}`,
    });
    expect(page.statusCode, page.body).toBe(200);
    for (const name of ['intro', 'full']) {
      const values = valuesOf(page.json(), name);
      expect(values.length, name).toBeGreaterThan(0);
      for (const value of values) expectClean(String(value), `booking page ${name}`);
    }
  });

  it('an intro saved before it was rich text (unsanitized in the database) is cleaned on the way out', async () => {
    const { event } = await createBookableEvent(t.database.db, companyId);
    await t.database.db.update(events).set({ intro: HOSTILE }).where(eq(events.id, event.id));

    const page = await t.app.inject({
      method: 'GET',
      url: `/api/v1/booking?authhash=${authhash}&e=${encodeEventCode(companyId, event.id)}`,
    });
    expect(valuesOf(page.json(), 'intro')).toHaveLength(1);
    for (const value of valuesOf(page.json(), 'intro')) expectClean(String(value), 'legacy intro');
  });

  it("a waiver's text (the public waiver page)", async () => {
    await create('waivers', { title: 'Hostile waiver', body: HOSTILE, applies_to: 'all', active: true });
    const { event } = await createBookableEvent(t.database.db, companyId);
    const parent = await createUser(t.database.db, companyId, { role: 'student' });
    const child = await createChild(t.database.db, companyId, parent.id);
    const { booking } = await createConfirmedBooking(t.database.db, companyId, {
      parentId: parent.id,
      eventId: event.id,
      childIds: [child.id],
    });

    const page = await t.app.inject({
      method: 'GET',
      url: `/api/v1/event-booking/waiver?authhash=${authhash}&id=${booking.reference}`,
    });
    expect(page.statusCode, page.body).toBe(200);
    expectClean(page.json().waiver.body, 'waiver body');
  });

  it('payment terms (both checkouts)', async () => {
    const { event } = await createBookableEvent(t.database.db, companyId);
    for (const appliesTo of ['events', 'parties'])
      await create('payment-terms', {
        name: `Terms ${appliesTo}`,
        applies_to: appliesTo,
        content: HOSTILE,
        is_default: true,
      });

    const eventTerms = await t.app.inject({
      method: 'GET',
      url: `/api/v1/booking/payment-terms?authhash=${authhash}&event_id=${event.id}`,
    });
    expect(eventTerms.statusCode, eventTerms.body).toBe(200);
    expectClean(eventTerms.json().content, 'event payment terms');
    const partyTerms = await t.app.inject({
      method: 'GET',
      url: `/api/v1/birthday-party/payment-terms?authhash=${authhash}`,
    });
    expect(partyTerms.statusCode, partyTerms.body).toBe(200);
    expectClean(partyTerms.json().payment_terms, 'party payment terms');
  });
});
