import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tenant } from '../../platform/tenancy.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { calendarTerm } from './calendar/term-calendar.ts';
import { termClosures, terms } from './classes.tables.ts';
import { createTermFromCalendar } from './terms.service.ts';

type Headers = Record<string, string>;

/** The messages a form response gives each field. */
const fieldErrors = (json: { error?: { element: { name: string; messages: string[] }[] } }) =>
  Object.fromEntries((json.error?.element ?? []).map((e) => [e.name, e.messages.join(' ')]));

describe('terms, closures and the built-in school calendar', () => {
  let t: TestContext;
  let staff: Headers;
  let coach: Headers;
  let foreign: Headers;
  let companyId: number;

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    t.app.inject({ method, url, headers, payload: method === 'POST' ? (payload ?? {}) : undefined });

  /** Every row of the classes' term tables, to prove a refused call wrote nothing. */
  const snapshot = async () => {
    const { db } = t.database;
    return {
      terms: await db.select().from(terms).orderBy(asc(terms.id)),
      closures: await db.select().from(termClosures).orderBy(asc(termClosures.id)),
    };
  };

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const a = await createCompany(db);
    const b = await createCompany(db);
    companyId = a.id;
    staff = (await sessionFor(db, await createUser(db, a.id, { role: 'companystaff' }))).headers;
    coach = (await sessionFor(db, await createUser(db, a.id, { role: 'companycoach' }))).headers;
    foreign = (await sessionFor(db, await createUser(db, b.id, { role: 'companyadmin' }))).headers;
  });
  afterAll(() => t.close());

  it('lists the calendar to staff and coaches: every region, 2026 and 2027, four terms each', async () => {
    const answer = await call('GET', '/api/v1/admin/term-calendar', coach);
    expect(answer.statusCode).toBe(200);
    const offered = answer.json().terms as { region: string; year: number; term: number; name: string }[];
    expect(offered).toHaveLength(8 * 2 * 4);
    expect(offered.find((o) => o.region === 'NSW' && o.year === 2027 && o.term === 1)).toMatchObject({
      name: 'Term 1 2027',
      region_name: 'New South Wales',
    });
  });

  it('creates NSW Term 1 2027 with its dates and Good Friday and Easter Monday as closures, in one step', async () => {
    const answer = await call('POST', '/api/v1/admin/term-calendar/create', staff, {
      region: 'NSW',
      year: 2027,
      term: 1,
    });
    expect(answer.statusCode).toBe(200);
    const json = answer.json();
    expect(json).toMatchObject({ valid: true, info: { title: 'Term created' } });
    const id = Number(/\/admin\/terms\/(\d+)\/closures$/.exec(json.redirect)?.[1]);
    const [term] = await t.database.db.select().from(terms).where(eq(terms.id, id));
    expect(term).toMatchObject({
      companyId,
      name: 'Term 1 2027',
      region: 'NSW',
      startDate: '2027-01-28',
      endDate: '2027-04-09',
      status: 'draft',
    });
    // The term's page lists its closures through the engine, as staff then edit them.
    const closures = await call('GET', `/api/v1/admin/terms/${id}/closures?per_page=50`, staff);
    expect(closures.statusCode).toBe(200);
    const rows = closures.json().data as {
      start_date: string;
      end_date: string;
      reason: string;
      kind: string;
    }[];
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          start_date: '2027-03-26',
          end_date: '2027-03-26',
          reason: 'Good Friday',
          kind: 'closed',
        }),
        expect.objectContaining({
          start_date: '2027-03-29',
          end_date: '2027-03-29',
          reason: 'Easter Monday',
          kind: 'closed',
        }),
      ]),
    );
    // Australia Day (26 January) is before the term starts: not a closure of it.
    expect(rows.map((r) => r.reason)).not.toContain('Australia Day');
  });

  it('refuses the same calendar term twice (same name, overlapping dates) and writes nothing', async () => {
    const before = await snapshot();
    const answer = await call('POST', '/api/v1/admin/term-calendar/create', staff, {
      region: 'NSW',
      year: '2027',
      term: '1',
    });
    expect(answer.json()).toMatchObject({ valid: false });
    expect(fieldErrors(answer.json())).toEqual({
      term: 'Another term named “Term 1 2027” overlaps these dates.',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('gives one term and refusals when staff create the same calendar term at the same moment', async () => {
    // Straight at the service, so the transactions overlap on separate connections.
    const tenant = new Tenant(companyId);
    const offer = calendarTerm('VIC', 2026, 2);
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => createTermFromCalendar(t.database.db, tenant, offer)),
    );
    expect(results.filter((r) => 'id' in r)).toHaveLength(1);
    expect(results.filter((r) => 'refused' in r)).toHaveLength(3);
    const [row] = (
      await t.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from terms where company_id = ${companyId} and name = 'Term 2 2026'`,
      )
    ).rows;
    expect(row?.n).toBe(1);
  });

  it('refuses a bad calendar choice with a message on each field, and writes nothing', async () => {
    const before = await snapshot();
    const answer = await call('POST', '/api/v1/admin/term-calendar/create', staff, {
      region: 'XYZ',
      year: 2031,
      term: 5,
    });
    expect(answer.statusCode).toBe(200);
    expect(fieldErrors(answer.json())).toEqual({
      region: 'Please choose a state or territory.',
      year: 'Please choose 2026 or 2027.',
      term: 'Please choose Term 1, 2, 3 or 4.',
    });
    const empty = await call('POST', '/api/v1/admin/term-calendar/create', staff, {});
    expect(Object.keys(fieldErrors(empty.json())).sort()).toEqual(['region', 'term', 'year']);
    expect(await snapshot()).toEqual(before);
  });

  it('lets a coach read the calendar but not create from it', async () => {
    const answer = await call('POST', '/api/v1/admin/term-calendar/create', coach, {
      region: 'QLD',
      year: 2026,
      term: 1,
    });
    expect(answer.statusCode).toBe(403);
  });

  it('refuses a term ending before it starts, or named like an overlapping term, with field messages', async () => {
    const before = await snapshot();
    const backwards = await call('POST', '/api/v1/admin/terms', staff, {
      name: 'Winter block',
      start_date: '2027-07-10',
      end_date: '2027-07-01',
      status: 'draft',
    });
    expect(fieldErrors(backwards.json())).toEqual({
      end_date: 'End date must be on or after the start date.',
    });
    const impossible = await call('POST', '/api/v1/admin/terms', staff, {
      name: 'Winter block',
      start_date: '2027-02-30',
      end_date: '2027-03-01',
      status: 'draft',
    });
    expect(fieldErrors(impossible.json())).toMatchObject({
      start_date: expect.stringContaining('valid date'),
    });
    const sameName = await call('POST', '/api/v1/admin/terms', staff, {
      name: ' term 1 2027 ',
      start_date: '2027-04-01',
      end_date: '2027-06-30',
      status: 'draft',
    });
    expect(fieldErrors(sameName.json())).toEqual({
      name: 'Another term named “term 1 2027” overlaps these dates.',
    });
    expect(await snapshot()).toEqual(before);
    // The same name on days that do not overlap is a different term (next year's).
    const nextYear = await call('POST', '/api/v1/admin/terms', staff, {
      name: 'Term 1 2027',
      start_date: '2028-01-31',
      end_date: '2028-04-07',
      status: 'draft',
    });
    expect(nextYear.json()).toMatchObject({ valid: true });
  });

  it('refuses a closure outside its term or ending before it starts, and a term shortened past its closures', async () => {
    const created = await call('POST', '/api/v1/admin/terms', staff, {
      name: 'Spring block',
      start_date: '2027-09-01',
      end_date: '2027-11-30',
      status: 'draft',
    });
    expect(created.json()).toMatchObject({ valid: true });
    const [term] = await t.database.db.select().from(terms).where(eq(terms.name, 'Spring block'));
    const url = `/api/v1/admin/terms/${term!.id}/closures`;
    const before = await snapshot();
    const outside = await call('POST', url, staff, {
      start_date: '2027-08-30',
      end_date: '2027-12-02',
      reason: 'Renovation',
      kind: 'closed',
    });
    expect(fieldErrors(outside.json())).toEqual({
      start_date: 'First day must be within the term (01/09/2027 to 30/11/2027).',
      end_date: 'Last day must be within the term (01/09/2027 to 30/11/2027).',
    });
    const backwards = await call('POST', url, staff, {
      start_date: '2027-10-10',
      end_date: '2027-10-09',
      reason: 'Renovation',
      kind: 'closed',
    });
    expect(fieldErrors(backwards.json())).toEqual({
      end_date: 'Last day must be on or after the first day.',
    });
    const badKind = await call('POST', url, staff, {
      start_date: '2027-10-10',
      end_date: '2027-10-10',
      reason: '',
      kind: 'holiday',
    });
    expect(Object.keys(fieldErrors(badKind.json())).sort()).toEqual(['kind', 'reason']);
    expect(await snapshot()).toEqual(before);

    const ok = await call('POST', url, staff, {
      start_date: '2027-11-20',
      end_date: '2027-11-21',
      reason: 'Competition weekend',
      kind: 'billing_only',
    });
    expect(ok.json()).toMatchObject({ valid: true });
    const shortened = await call('POST', `/api/v1/admin/terms/${term!.id}`, staff, {
      name: 'Spring block',
      start_date: '2027-09-01',
      end_date: '2027-11-10',
      status: 'draft',
    });
    expect(fieldErrors(shortened.json())).toEqual({
      end_date: 'Some closures of this term fall outside these dates: change or remove them first.',
    });
  });

  it('checks class types: age range, trial price, makeup credit days', async () => {
    const base = {
      name: 'Kinder Gym',
      default_duration_minutes: 45,
      capacity_default: 8,
      pricing_model: 'per_session',
      price: 2500,
      gst: 'taxable',
    };
    const before = await snapshot();
    const bad = await call('POST', '/api/v1/admin/class-types', staff, {
      ...base,
      age_min_months: 48,
      age_max_months: 36,
      trial_allowed: true,
      makeup_allowed: true,
      makeup_expiry: 'days',
    });
    expect(fieldErrors(bad.json())).toEqual({
      age_max_months: 'Age to must be at least Age from.',
      trial_price: 'Trial price is required.',
      makeup_expiry_days: 'Makeup credit days is required.',
    });
    const [count] = (
      await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from class_types`)
    ).rows;
    expect(count?.n).toBe(0);
    expect(await snapshot()).toEqual(before);
    const good = await call('POST', '/api/v1/admin/class-types', staff, {
      ...base,
      description: '<p>Fun <script>alert(1)</script>for 3 to 5</p>',
      age_min_months: 36,
      age_max_months: 60,
      trial_allowed: true,
      trial_price: 1000,
      makeup_allowed: true,
      makeup_expiry: 'end_of_term',
      colour: '#ff8800',
    });
    expect(good.json()).toMatchObject({ valid: true });
    const [stored] = (
      await t.database.db.execute<{ description: string; makeup_expiry_days: number | null }>(
        sql`select description, makeup_expiry_days from class_types where name = 'Kinder Gym'`,
      )
    ).rows;
    expect(stored?.description).not.toContain('<script');
    expect(stored?.makeup_expiry_days).toBeNull();
  });

  it('keeps uniform types and their sizes per company', async () => {
    const type = await call('POST', '/api/v1/admin/uniform-types', staff, {
      name: 'Club leotard',
      price: 4500,
    });
    expect(type.json()).toMatchObject({ valid: true });
    const [row] = (
      await t.database.db.execute<{ id: number }>(
        sql`select id from uniform_types where company_id = ${companyId} and name = 'Club leotard'`,
      )
    ).rows;
    const size = await call('POST', `/api/v1/admin/uniform-types/${row!.id}/uniform-sizes`, staff, {
      name: 'Child 8',
      stock: 12,
    });
    expect(size.json()).toMatchObject({ valid: true });
    const negative = await call('POST', `/api/v1/admin/uniform-types/${row!.id}/uniform-sizes`, staff, {
      name: 'Child 10',
      stock: -1,
    });
    expect(fieldErrors(negative.json())).toEqual({ stock: 'In stock must be at least 0.' });
    const elsewhere = await call('GET', `/api/v1/admin/uniform-types/${row!.id}/uniform-sizes`, foreign);
    expect(elsewhere.statusCode).toBe(404);
  });

  it('answers 404 to another company for a term, its closures and its edit, and changes nothing', async () => {
    const [term] = await t.database.db.select().from(terms).where(eq(terms.name, 'Term 1 2027'));
    const [closure] = await t.database.db
      .select()
      .from(termClosures)
      .where(eq(termClosures.termId, term!.id));
    const before = await snapshot();
    for (const [method, url, payload] of [
      ['GET', `/api/v1/admin/terms/${term!.id}`],
      ['GET', `/api/v1/admin/terms/${term!.id}/edit`],
      [
        'POST',
        `/api/v1/admin/terms/${term!.id}`,
        { name: 'Mine', start_date: '2027-01-01', end_date: '2027-02-01', status: 'open' },
      ],
      ['GET', `/api/v1/admin/terms/${term!.id}/closures`],
      ['GET', `/api/v1/admin/terms/${term!.id}/closures/${closure!.id}`],
      [
        'POST',
        `/api/v1/admin/terms/${term!.id}/closures`,
        { start_date: '2027-02-01', end_date: '2027-02-01', reason: 'x', kind: 'closed' },
      ],
    ] as const) {
      const answer = await call(method, url, foreign, payload);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
    }
    // Another company may create the same calendar term: names are checked per company.
    const theirs = await call('POST', '/api/v1/admin/term-calendar/create', foreign, {
      region: 'NSW',
      year: 2027,
      term: 1,
    });
    expect(theirs.json()).toMatchObject({ valid: true });
    const after = await snapshot();
    expect(after.terms.filter((x) => x.companyId === companyId)).toEqual(
      before.terms.filter((x) => x.companyId === companyId),
    );
    expect(after.closures.filter((x) => x.companyId === companyId)).toEqual(
      before.closures.filter((x) => x.companyId === companyId),
    );
  });
});
