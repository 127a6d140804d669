import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { connectDatabase, ensureDatabase } from '../db/client.ts';
import { EMBEDDED_DATABASE, startEmbeddedPostgres } from '../db/embedded.ts';
import { runMigrations } from '../db/migrate.ts';
import { bookings } from '../features/bookings/bookings.tables.ts';
import { createBookableEvent } from '../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../testing/factories.ts';
import { createTestApp } from '../testing/harness.ts';
import { LocalDiskStorage } from './files.ts';
import { startJobs } from './jobs.ts';

/** A checkout order for the fixture's first day (see features/bookings/bookings.int.test.ts). */
const order = (fixture: Awaited<ReturnType<typeof createBookableEvent>>) => ({
  event_id: fixture.event.id,
  quantity: 1,
  booked: [fixture.cell()],
  waiting: [],
  children: [
    { first_name: 'Ada', last_name: 'Lovelace', dob: '2018-04-01', insurance_type: 'daily_insurance' },
  ],
  amount: 4500 + 300,
  accept_terms: true,
});

describe('faults', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('a row lock held longer than LOCK_TIMEOUT_MS answers 503 with Retry-After, never hangs, and writes nothing', async () => {
    const t = await createTestApp({ LOCK_TIMEOUT_MS: '300' });
    cleanups.push(() => t.close());
    const company = await createCompany(t.database.db, { paymentMethod: 'test' });
    const fixture = await createBookableEvent(t.database.db, company.id);
    const parent = await sessionFor(
      t.database.db,
      await createUser(t.database.db, company.id, { role: 'student' }),
    );
    const checkout = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/booking/checkout?authhash=${company.authhash}`,
        headers: parent.headers,
        payload: order(fixture),
      });

    // Another transaction (a slow staff action, a stuck worker) holds the session's row lock.
    const blocker = new pg.Client({ connectionString: t.databaseUrl });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select id from event_sessions where id = $1 for update', [fixture.session.id]);
    const started = Date.now();
    const blocked = await checkout();
    const waited = Date.now() - started;
    await blocker.query('rollback');
    await blocker.end();

    expect(blocked.statusCode).toBe(503);
    expect(blocked.headers['retry-after']).toBe('2');
    expect(blocked.json()).toEqual({ message: 'This is very busy right now. Please try again in a moment.' });
    expect(waited).toBeLessThan(3000);
    expect((await t.database.db.select({ n: count() }).from(bookings))[0]!.n).toBe(0);
    // Once the lock is gone the same checkout goes through.
    expect((await checkout()).statusCode).toBe(200);
  });

  it('PostgreSQL stopped under load: requests fail fast with 503, the server recovers by itself, nothing is half-written', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tumble-fault-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let server = await startEmbeddedPostgres(dataDir);
    cleanups.push(() => server.stop());
    const url = await ensureDatabase(server.url, EMBEDDED_DATABASE);
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://tumble.test',
      RATE_LIMIT_PER_MINUTE: '100000',
      WEB_DIST: '/nonexistent',
    });
    const database = connectDatabase(url, { max: 5, lockTimeoutMs: config.LOCK_TIMEOUT_MS });
    await runMigrations(database.db);
    const jobs = await startJobs({ config, database, databaseUrl: url, workers: false });
    const app = await buildApp({ config, database, jobs, files: new LocalDiskStorage(config.filesDir) });
    await app.ready();
    cleanups.push(async () => {
      await app.close();
      await jobs.stop();
      await database.close();
    });

    const company = await createCompany(database.db, { paymentMethod: 'test' });
    const fixture = await createBookableEvent(database.db, company.id);
    const parent = await sessionFor(
      database.db,
      await createUser(database.db, company.id, { role: 'student' }),
    );
    const page = `/api/v1/booking/sessions?authhash=${company.authhash}&e=${Buffer.from(`${company.id}|${fixture.event.id}`).toString('hex')}`;
    const load = () =>
      Promise.all(Array.from({ length: 20 }, () => app.inject({ method: 'GET', url: page })));
    expect((await load()).every((r) => r.statusCode === 200)).toBe(true);

    await server.stop();
    const started = Date.now();
    const [down, checkout] = await Promise.all([
      load(),
      app.inject({
        method: 'POST',
        url: `/api/v1/booking/checkout?authhash=${company.authhash}`,
        headers: parent.headers,
        payload: order(fixture),
      }),
    ]);
    const took = Date.now() - started;
    for (const response of [...down, checkout]) {
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toEqual({
        message: 'The service is briefly unavailable. Please try again in a few seconds.',
      });
    }
    expect(took).toBeLessThan(6000);

    server = await startEmbeddedPostgres(dataDir, () => {}, { port: server.port });
    // The pool drops its dead connections and opens new ones: no restart of the server needed.
    let recovered = false;
    for (let i = 0; i < 50 && !recovered; i++) {
      recovered = (await load()).every((r) => r.statusCode === 200);
      if (!recovered) await new Promise((r) => setTimeout(r, 200));
    }
    expect(recovered).toBe(true);
    // The checkout tried while the database was down left nothing behind.
    expect(await database.db.select().from(bookings).where(eq(bookings.eventId, fixture.event.id))).toEqual(
      [],
    );
    const retried = await app.inject({
      method: 'POST',
      url: `/api/v1/booking/checkout?authhash=${company.authhash}`,
      headers: parent.headers,
      payload: order(fixture),
    });
    expect(retried.statusCode).toBe(200);
  });
});
