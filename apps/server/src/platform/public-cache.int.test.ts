import { encodeEventCode } from '@tumble/contracts/booking';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { connectDatabase, type Database } from '../db/client.ts';
import { events, eventTickets } from '../features/events/events.tables.ts';
import { partySlots } from '../features/parties/parties.tables.ts';
import { createBookableEvent, FUTURE_MONDAY } from '../testing/booking-fixtures.ts';
import { createCompany, createUser, signIn } from '../testing/factories.ts';
import { createTestApp, type TestContext } from '../testing/harness.ts';
import { createPartySetup } from '../testing/party-fixtures.ts';
import { CACHED_TABLES, MAX_ENTRIES, publicCacheOf } from './public-cache.ts';
import { addDays } from './time.ts';

/**
 * The public read cache (decision 021) with two app instances on one database, each with its own
 * pool and listener, as two server processes: A is `t.app`, B is built here.
 */
let t: TestContext;
let otherDatabase: Database;
let b: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  otherDatabase = connectDatabase(t.databaseUrl, { max: 5 });
  b = await buildApp({ ...t.deps, database: otherDatabase });
  await b.ready();
});
afterAll(async () => {
  await b.close();
  await otherDatabase.close();
  await t.close();
});

async function companyWithEvent() {
  const { db } = t.database;
  const company = await createCompany(db);
  const fixture = await createBookableEvent(db, company.id, { capacity: 3 });
  const admin = await createUser(db, company.id, { role: 'companyadmin' });
  const e = encodeEventCode(company.id, fixture.event.id);
  const page = `/api/v1/booking?e=${e}&authhash=${company.authhash}`;
  const sessions = `/api/v1/booking/sessions?e=${e}&authhash=${company.authhash}`;
  return { company, fixture, admin, e, page, sessions };
}

const get = async (app: FastifyInstance, url: string) => {
  const response = await app.inject({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

/** Polls until `check` passes or `ms` is over; returns how long it took. */
async function within(ms: number, check: () => Promise<void>): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return Date.now() - started;
    } catch (error) {
      if (Date.now() - started > ms) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const rawSql = async (sql: string, params: unknown[] = []) => {
  const client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
  try {
    await client.query(sql, params);
  } finally {
    await client.end();
  }
};

describe('public read cache', () => {
  it('every cached table has the notify triggers', async () => {
    const { rows } = await t.database.pool.query<{ table: string; n: number }>(
      `select c.relname as table, count(*)::int as n from pg_trigger g join pg_class c on c.oid = g.tgrelid
       where g.tgname like '%\\_cache\\_%' group by c.relname`,
    );
    const triggers = new Map(rows.map((r) => [r.table, r.n]));
    for (const table of CACHED_TABLES) expect(triggers.get(table), table).toBe(3);
  });

  it('both instances cache; a staff change through the engine on A is seen by B within 1 s and by A at once', async () => {
    const { fixture, admin, page } = await companyWithEvent();
    expect((await get(t.app, page)).event.name).toBe('Holiday Camp');
    expect((await get(b, page)).event.name).toBe('Holiday Camp');
    expect(publicCacheOf(t.database.db)!.size).toBeGreaterThan(0);
    expect(publicCacheOf(otherDatabase.db)!.size).toBeGreaterThan(0);

    const { headers } = await signIn(t.app, admin);
    const busy = publicCacheOf(t.database.db)!.listenerForTests!.query('select pg_sleep(0.3)');
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/events/${fixture.event.id}`,
      headers,
      payload: {
        name: 'Winter Camp',
        start_date: fixture.event.startDate,
        end_date: fixture.event.endDate,
        published: true,
        age_start: 5,
        age_end: 12,
        cutoff_days_before: 0,
      },
    });
    expect(saved.json(), saved.body).toMatchObject({ valid: true });
    // Read-your-writes on A: the answer to the save came after A's listener had its notification,
    // even with that notification held back (a listener busy in a query gets it afterwards).
    expect((await get(t.app, page)).event.name).toBe('Winter Camp');
    await busy;
    const took = await within(1000, async () => expect((await get(b, page)).event.name).toBe('Winter Camp'));
    expect(took).toBeLessThan(1000);
  });

  it('a price changed by raw SQL (a job, psql) reaches both instances', async () => {
    const { fixture, sessions } = await companyWithEvent();
    const price = (body: { days: Record<string, { price: number | null }[]> }) =>
      body.days[FUTURE_MONDAY]![0]!.price;
    expect(price(await get(t.app, sessions))).toBe(4500);
    expect(price(await get(b, sessions))).toBe(4500);
    await rawSql('update event_tickets set price = 5200 where event_id = $1', [fixture.event.id]);
    await within(1000, async () => expect(price(await get(t.app, sessions))).toBe(5200));
    await within(1000, async () => expect(price(await get(b, sessions))).toBe(5200));
  });

  it('a party slot closed on A is gone from the slot capacity on B within 1 s', async () => {
    const { db } = t.database;
    const company = await createCompany(db);
    const { afternoon } = await createPartySetup(db, company.id);
    const date = addDays(new Date().toISOString().slice(0, 10), 3);
    const url = `/api/v1/birthday-party/booking/slot-capacity?authhash=${company.authhash}&date=${date}`;
    const names = (body: { slots: { name: string }[] }) => body.slots.map((s) => s.name);
    expect(names(await get(b, url))).toEqual(['Morning', 'Afternoon']);
    await db.update(partySlots).set({ archivedAt: new Date() }).where(eq(partySlots.id, afternoon.id));
    await within(1000, async () => expect(names(await get(b, url))).toEqual(['Morning']));
  });

  it('places taken are never cached: a booked place shows on the next read', async () => {
    const { company, fixture, sessions } = await companyWithEvent();
    const available = async () => (await get(b, sessions)).days[FUTURE_MONDAY][0].available;
    expect(await available()).toBe(3);
    const parent = await createUser(t.database.db, company.id, { role: 'student' });
    await rawSql(
      `with b as (insert into bookings (company_id, parent_id, event_id, reference, code, status, quantity, pricing, total, provider)
         values ($1, $2, $3, 'cache-test', 'BK-CACHE', 'confirmed', 2, '{}', 0, 'test') returning id)
       insert into booking_places (company_id, booking_id, session_id, date, places, unit_price) select $1, id, $4, $5, 2, 4500 from b`,
      [company.id, parent.id, fixture.event.id, fixture.session.id, FUTURE_MONDAY],
    );
    expect(await available()).toBe(1);
  });

  it('a read that began before an invalidation does not store its older result', async () => {
    const cache = publicCacheOf(otherDatabase.db)!;
    const companyId = 987_654;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = cache.read(companyId, 'race', async () => {
      await gate;
      return 'old';
    });
    // The write commits and its notification arrives while the read is still running.
    await otherDatabase.pool.query(`select pg_notify('tumble_cache', $1)`, [String(companyId)]);
    await cache.sync();
    release();
    expect(await slow).toBe('old');
    expect(await cache.read(companyId, 'race', async () => 'new')).toBe('new');
  });

  it("tenants stay apart: A's invalidation leaves B's entries, and A's data never answers B's authhash", async () => {
    const one = await companyWithEvent();
    const two = await companyWithEvent();
    expect((await get(b, one.page)).event.name).toBe('Holiday Camp');
    expect((await get(b, two.page)).event.name).toBe('Holiday Camp');
    // Company one's event code under company two's authhash: no event there.
    const crossed = await b.inject({
      method: 'GET',
      url: `/api/v1/booking?e=${one.e}&authhash=${two.company.authhash}`,
    });
    expect(crossed.statusCode).toBe(404);

    // Renamed behind the cache's back (no notification): only company one is then invalidated.
    await rawSql(`alter table events disable trigger events_cache_update`);
    try {
      await rawSql(`update events set name = 'Quiet rename' where id = any($1)`, [
        [one.fixture.event.id, two.fixture.event.id],
      ]);
    } finally {
      await rawSql(`alter table events enable trigger events_cache_update`);
    }
    await otherDatabase.pool.query(`select pg_notify('tumble_cache', $1)`, [String(one.company.id)]);
    await publicCacheOf(otherDatabase.db)!.sync();
    expect((await get(b, one.page)).event.name).toBe('Quiet rename');
    expect((await get(b, two.page)).event.name).toBe('Holiday Camp');
    await rawSql(`update events set name = name where id = $1`, [two.fixture.event.id]);
  });

  it('when the listener connection drops, the cache is emptied and bypassed until it listens again', async () => {
    const { fixture, page } = await companyWithEvent();
    const cache = publicCacheOf(otherDatabase.db)!;
    await get(b, page);
    expect(cache.listening).toBe(true);
    await rawSql(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = 'LISTEN tumble_cache' and pid <> pg_backend_pid()`,
    );
    await within(1000, async () => expect(cache.listening).toBe(false));
    expect(cache.size).toBe(0);
    // Not listening: a write's notification would be lost, so reads go to the database.
    await rawSql(`alter table events disable trigger events_cache_update`);
    try {
      await rawSql(`update events set name = 'Unannounced' where id = $1`, [fixture.event.id]);
    } finally {
      await rawSql(`alter table events enable trigger events_cache_update`);
    }
    expect((await get(b, page)).event.name).toBe('Unannounced');
    await within(3000, async () => expect(cache.listening).toBe(true));
    await get(b, page);
    expect(cache.size).toBeGreaterThan(0);
    // Listening again: notifications reach it.
    await t.database.db.update(events).set({ name: 'Announced' }).where(eq(events.id, fixture.event.id));
    await within(1000, async () => expect((await get(b, page)).event.name).toBe('Announced'));
  });

  it('holds at most MAX_ENTRIES entries, dropping the least recently used', async () => {
    const cache = publicCacheOf(otherDatabase.db)!;
    const companyId = 987_655;
    const read = (key: string, value = key) => cache.read(companyId, key, async () => value);
    await read('first');
    await read('kept');
    for (let i = 0; i < MAX_ENTRIES; i++) {
      await read(`filler-${i}`);
      if (i === MAX_ENTRIES / 2) await read('kept'); // used again: now among the most recent
    }
    expect(cache.size).toBe(MAX_ENTRIES);
    expect(await read('kept', 'reloaded')).toBe('kept');
    expect(await read('first', 'reloaded')).toBe('reloaded');
    cache.invalidate(companyId);
  });

  it('cached rows are frozen: a caller cannot change what other requests read', async () => {
    const { company, fixture } = await companyWithEvent();
    const cache = publicCacheOf(t.database.db)!;
    const rows = await cache.read(company.id, 'frozen', async () =>
      t.database.db.select().from(eventTickets).where(eq(eventTickets.eventId, fixture.event.id)),
    );
    const again = await cache.read(company.id, 'frozen', async () => []);
    expect(again).toBe(rows);
    expect(() => {
      (again as { price: number }[])[0]!.price = 1;
    }).toThrow(TypeError);
  });
});
