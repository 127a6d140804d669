import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { encodeEventCode } from '@tumble/contracts/booking';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tenant } from '../../platform/tenancy.ts';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createCompany } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { terms } from '../classes/classes.tables.ts';
import { events } from '../events/events.tables.ts';
import { registrationForms } from '../registration/registration.tables.ts';

/** index.html as Vite builds it: the stylesheet and the module script in <head>, an empty #root. */
const INDEX_HTML = [
  '<!doctype html><html lang="en-AU"><head><meta charset="UTF-8" /><title>Tumble</title>',
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>',
  '<link rel="stylesheet" crossorigin href="/assets/index-abc.css">',
  '</head><body><div id="root"></div><noscript>Tumble needs JavaScript to run.</noscript></body></html>',
].join('\n');

const HOSTILE_NAME = '</script><script>alert(1)</script>';
const HOSTILE_INTRO =
  '<p>Fun <strong>days</strong></p><img src="x" onerror="alert(2)"><script>alert(3)</script>';

let t: TestContext;
let company: Awaited<ReturnType<typeof createCompany>>;
let e: string;

const get = (url: string) => t.app.inject({ method: 'GET', url });

/** The JSON the page embeds for the SPA. */
function bootstrapOf(html: string) {
  const match = /<script type="application\/json" id="bootstrap">([^<]*)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!) : null;
}

beforeAll(async () => {
  const webDist = await mkdtemp(path.join(os.tmpdir(), 'tumble-web-'));
  await writeFile(path.join(webDist, 'index.html'), INDEX_HTML);
  t = await createTestApp({ WEB_DIST: webDist });
  company = await createCompany(t.database.db, { name: 'Bounce & Co' });
  const f = await createBookableEvent(t.database.db, company.id);
  await t.database.db
    .update(events)
    .set({ name: 'Summer Camp', intro: '<p>Two weeks of <em>tumbling</em></p>', ageStart: 5, ageEnd: 12 })
    .where(new Tenant(company.id).where(events, eq(events.id, f.event.id)));
  e = encodeEventCode(company.id, f.event.id);
});
afterAll(() => t.close());

describe('the /booking HTML', () => {
  it('carries the event header inside #root, the stylesheet after it and the API answer as JSON', async () => {
    const response = await get(`/booking?e=${e}&authhash=${company.authhash}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    const html = response.body;
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('<script type="application/json"'));
    expect(root).toContain('<h1 class="ssr-title">Summer Camp</h1>');
    expect(root).toContain('Bounce &amp; Co');
    expect(root).toContain('<p>Two weeks of <em>tumbling</em></p>');
    expect(root).toMatch(/\d\d\/\d\d\/\d{4} – \d\d\/\d\d\/\d{4}/);
    expect(root).toContain('Ages 5–12');
    expect(root).toContain('Book Now');
    expect(html).toContain('<title>Summer Camp · Booking</title>');
    // Critical CSS inline in <head>; the built stylesheet no longer blocks the first paint from <head>.
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<style id="ssr-css">');
    expect(head).not.toContain('rel="stylesheet"');
    expect(root).toContain(
      '<link fetchpriority="low" rel="stylesheet" crossorigin href="/assets/index-abc.css">',
    );
    const api = await get(`/api/v1/booking?e=${e}&authhash=${company.authhash}`);
    expect(bootstrapOf(html)).toEqual({ booking: { e, authhash: company.authhash, page: api.json() } });
  });

  it('is compressed for browsers that take it', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/booking?e=${e}&authhash=${company.authhash}`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toContain('accept-encoding');
  });

  it('escapes a hostile event name and sends the intro only as the API sanitises it', async () => {
    const other = await createCompany(t.database.db);
    const f = await createBookableEvent(t.database.db, other.id);
    await t.database.db
      .update(events)
      // Written straight to the table: as if saved before intros were sanitised.
      .set({ name: HOSTILE_NAME, intro: HOSTILE_INTRO, full: HOSTILE_INTRO })
      .where(new Tenant(other.id).where(events, eq(events.id, f.event.id)));
    const code = encodeEventCode(other.id, f.event.id);
    const html = (await get(`/booking?e=${code}&authhash=${other.authhash}`)).body;
    expect(html).toContain('<h1 class="ssr-title">&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    const markup = html.slice(0, html.indexOf('<script type="application/json"'));
    expect(markup).toContain('<p>Fun <strong>days</strong></p><img src="x" />');
    expect(markup).not.toContain('alert(2)');
    expect(markup).not.toContain('onerror');
    // Nothing in the JSON can end its <script> element or start another one.
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('</script><script>alert');
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(bootstrapOf(html).booking.page.event.name).toBe(HOSTILE_NAME);
  });

  it('is the plain index.html for an unknown event, a bad authhash or the success view', async () => {
    const unknown = encodeEventCode(company.id, 999_999);
    for (const url of [
      `/booking?e=${unknown}&authhash=${company.authhash}`,
      `/booking?e=${e}&authhash=nope`,
      `/booking?e=${e}`,
      `/booking?e=${e}&authhash=${company.authhash}&status=true`,
      '/booking',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(INDEX_HTML);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it("never renders this company's event under another company's authhash", async () => {
    const other = await createCompany(t.database.db);
    const response = await get(`/booking?e=${e}&authhash=${other.authhash}`);
    expect(response.body).toBe(INDEX_HTML);
    expect(response.body).not.toContain('Summer Camp');
  });

  it('is the plain index.html for a suspended company and for a company without the events module', async () => {
    for (const overrides of [{ status: 'suspended' as const }, { disabledModules: ['events'] }]) {
      const closed = await createCompany(t.database.db, overrides);
      const f = await createBookableEvent(t.database.db, closed.id);
      const response = await get(
        `/booking?e=${encodeEventCode(closed.id, f.event.id)}&authhash=${closed.authhash}`,
      );
      expect(response.body, JSON.stringify(overrides)).toBe(INDEX_HTML);
    }
  });
});

describe('the party booking page HTML', () => {
  it('carries the company and the page title, and the branding as JSON', async () => {
    const html = (await get(`/birthday-party/booking/?authhash=${company.authhash}`)).body;
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('<script type="application/json"'));
    expect(root).toContain('<p class="ssr-brand-name">Bounce &amp; Co</p>');
    expect(root).toContain('<h1 class="ssr-title">Book a birthday party</h1>');
    expect(bootstrapOf(html)).toEqual({
      company: { authhash: company.authhash, name: 'Bounce & Co', logo: null },
    });
  });

  it('is the plain index.html for a bad authhash, a suspended company, the parties module off or the success view', async () => {
    const suspended = await createCompany(t.database.db, { status: 'suspended' });
    const noParties = await createCompany(t.database.db, { disabledModules: ['parties'] });
    for (const url of [
      '/birthday-party/booking/?authhash=nope',
      '/birthday-party/booking/',
      `/birthday-party/booking/?authhash=${suspended.authhash}`,
      `/birthday-party/booking/?authhash=${noParties.authhash}`,
      `/birthday-party/booking/?authhash=${company.authhash}&status=true`,
    ]) {
      expect((await get(url)).body, url).toBe(INDEX_HTML);
    }
  });
});

describe('the registration page HTML', () => {
  /** A published form offering one open term; the term's public enrolment opens at `opensAt`. */
  async function form(companyId: number, name: string, intro: string | null, opensAt: Date | null = null) {
    const tenant = new Tenant(companyId);
    const [term] = await t.database.db
      .insert(terms)
      .values(
        tenant.values({
          name: 'Term 1 2027',
          startDate: '2027-02-01',
          endDate: '2027-04-09',
          status: 'open' as const,
          publicEnrolmentOpensAt: opensAt,
        }),
      )
      .returning();
    const key = `form-${term!.id}`;
    await t.database.db
      .insert(registrationForms)
      .values(tenant.values({ key, name, intro, termIds: [term!.id] }));
    return key;
  }

  it("carries the company, the form's name and introduction, and the form's API answer as JSON", async () => {
    const f = await form(company.id, 'Term 1 classes', '<p>Find a class for <em>every</em> age</p>');
    const html = (await get(`/registration/?f=${f}&authhash=${company.authhash}`)).body;
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('<script type="application/json"'));
    expect(root).toContain('<p class="ssr-brand-name">Bounce &amp; Co</p>');
    expect(root).toContain('<h1 class="ssr-title ssr-mb">Term 1 classes</h1>');
    expect(root).toContain('<h2 class="ssr-h4">Find a class</h2>');
    expect(root).toContain('<p>Find a class for <em>every</em> age</p>');
    // The first child's date of birth and the summary, where the SPA draws them; nothing pressable yet.
    expect(root).toContain('<label class="ssr-label" for="ssr-dob">Child’s date of birth</label>');
    expect(root).toContain('<input id="ssr-dob" class="ssr-input" placeholder="DD/MM/YYYY" disabled>');
    expect(root).toContain('aria-label="Enrolment summary"');
    expect(root).toContain('disabled>Sign in to pay</button>');
    expect(root.match(/<button /g)?.length).toBe(root.match(/<button [^>]*disabled>/g)?.length);
    expect(html).toContain('<title>Term 1 classes</title>');
    const api = await get(`/api/v1/registration/form?f=${f}&authhash=${company.authhash}`);
    expect(api.statusCode).toBe(200);
    expect(bootstrapOf(html)).toEqual({ registration: { f, authhash: company.authhash, page: api.json() } });
  });

  it('escapes a hostile form name and sends the introduction only as it is sanitised', async () => {
    const f = await form(company.id, HOSTILE_NAME, HOSTILE_INTRO);
    const html = (await get(`/registration?f=${f}&authhash=${company.authhash}`)).body;
    expect(html).toContain(
      '<h1 class="ssr-title ssr-mb">&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>',
    );
    const markup = html.slice(0, html.indexOf('<script type="application/json"'));
    expect(markup).toContain('<p>Fun <strong>days</strong></p><img src="x" />');
    expect(markup).not.toContain('onerror');
    expect(html).not.toContain('<script>');
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(bootstrapOf(html).registration.page.form.name).toBe(HOSTILE_NAME);
  });

  it('is the plain index.html behind the waiting room, and for an unknown form, a bad authhash, another company, the classes module off, a suspended company or the paid view', async () => {
    const f = await form(company.id, 'Term 1 classes', null);
    // Opens in 10 minutes: within the waiting room's 30, so the SPA shows the queue instead.
    const queued = await form(company.id, 'Enrolment day', null, new Date(Date.now() + 10 * 60_000));
    const other = await createCompany(t.database.db);
    const noClasses = await createCompany(t.database.db, { disabledModules: ['classes'] });
    const suspended = await createCompany(t.database.db, { status: 'suspended' });
    const urls = [
      `/registration?f=${queued}&authhash=${company.authhash}`,
      `/registration?f=nope&authhash=${company.authhash}`,
      `/registration?f=${f}&authhash=nope`,
      `/registration?f=${f}`,
      `/registration?f=${f}&authhash=${other.authhash}`,
      `/registration?f=${await form(noClasses.id, 'Off', null)}&authhash=${noClasses.authhash}`,
      `/registration?f=${await form(suspended.id, 'Closed', null)}&authhash=${suspended.authhash}`,
      `/registration?f=${f}&authhash=${company.authhash}&status=true`,
    ];
    for (const url of urls) expect((await get(url)).body, url).toBe(INDEX_HTML);
    // The same form opening in two hours is drawn: its waiting room is not open yet.
    const later = await form(company.id, 'Next term', null, new Date(Date.now() + 2 * 60 * 60_000));
    expect((await get(`/registration?f=${later}&authhash=${company.authhash}`)).body).toContain(
      '<h1 class="ssr-title ssr-mb">Next term</h1>',
    );
  });
});
