import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';

/**
 * A page far back in a big list reads only its own rows from the table (issue 19): the rows OFFSET
 * skips come from the sort's index alone. Reading them whole (or sorting them all) made page 200 of
 * a 15,000-booking event cost 23 ms of PostgreSQL time per request against 1.2 ms now.
 */
let t: TestContext;
let admin: Record<string, string>;
let eventId: number;
// Big enough that reading the page's 25 rows by id is the plan (on a few thousand rows a sequential
// scan of the whole table is as cheap, and PostgreSQL rightly takes it).
const BOOKINGS = 20_000;

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.database;
  const company = await createCompany(db, { paymentMethod: 'test' });
  admin = (await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' }))).headers;
  const parentId = (await createUser(db, company.id, { role: 'student' })).id;
  eventId = (await createBookableEvent(db, company.id)).event.id;
  await db.execute(sql`
    INSERT INTO bookings (company_id, parent_id, event_id, reference, code, status, quantity, pricing, total, provider, created_at)
    SELECT ${company.id}, ${parentId}, ${eventId}, 'lp-' || n, 'LP-' || n, 'confirmed', 1, '{}'::jsonb, n * 100, 'test',
           now() - n * interval '1 minute'
    FROM generate_series(1, ${BOOKINGS}::int) AS n`);
  // As on a live database: statistics known, the visibility map set (what index-only scans read).
  await db.execute(sql`VACUUM ANALYZE bookings`);
});
afterAll(() => t.close());

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
};
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

it('page 100 of 20,000 bookings reads its 25 rows from the table, and only those', async () => {
  // Every query the list sends, as the pool receives it.
  const { pool } = t.database;
  const sent: { text: string; values: unknown[] }[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { query: unknown }).query = (config: { text?: string }, values: unknown[]) => {
    if (typeof config === 'object' && config.text) sent.push({ text: config.text, values });
    return query(config, values);
  };
  let response: Awaited<ReturnType<typeof t.app.inject>>;
  try {
    response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/events/${eventId}/bookings?page=100&perPage=25&sort=created_at&order=asc`,
      headers: admin,
    });
  } finally {
    (pool as { query: unknown }).query = query;
  }
  expect(response.statusCode).toBe(200);
  // Oldest first: page 100 holds the 2,476th to 2,500th oldest bookings.
  const codes = (response.json() as { data: { code: string }[] }).data.map((r) => r.code);
  expect(codes).toEqual(Array.from({ length: 25 }, (_, i) => `LP-${BOOKINGS - 2475 - i}`));

  const page = sent.filter(
    (q) => /from "bookings"/.test(q.text) && /offset/i.test(q.text) && !/count\(/.test(q.text),
  );
  expect(page.length).toBeGreaterThan(0);
  for (const { text, values } of page) {
    const { rows } = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
    const plan = (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan;
    // Rows read from the bookings table itself (not from an index alone), over every loop.
    const fromTable = nodes(plan)
      .filter((n) => n['Relation Name'] === 'bookings' && n['Node Type'] !== 'Index Only Scan')
      .reduce((sum, n) => sum + n['Actual Rows'] * n['Actual Loops'], 0);
    expect(fromTable, text).toBeLessThanOrEqual(25);
  }
});
