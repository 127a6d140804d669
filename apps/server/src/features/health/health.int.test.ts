import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../db/client.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';

describe('GET /api/health', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 200 with the database up', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'up' });
  });

  it('answers 503 with the database down when PostgreSQL cannot be reached', async () => {
    // Point a second app at a port where nothing listens: the health check must say so, not hang.
    const broken = await createTestApp();
    await broken.database.pool.end();
    const response = await broken.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'degraded', database: 'down' });
    await broken.app.close();
    await broken.deps.jobs.stop();
  });

  it('GET /api/ready answers 200 on a database with every migration applied', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
  });

  it('GET /api/ready answers 503 with the reason when the database cannot be reached', async () => {
    // A pool pointed at a port where nothing listens (a closed port), as when PostgreSQL is down.
    const broken = await createTestApp();
    const closed = connectDatabase('postgres://nobody:x@127.0.0.1:1/none', { max: 1 });
    const answering = broken.deps.database;
    (broken.deps as { database: Database }).database = closed;
    try {
      const response = await broken.app.inject({ method: 'GET', url: '/api/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'unready', reason: 'The database does not answer.' });
    } finally {
      (broken.deps as { database: Database }).database = answering;
      await closed.close();
      await broken.close();
    }
  });

  it('GET /api/ready answers 503 while the migrations are not applied (none yet, or one missing)', async () => {
    const fresh = await createTestApp();
    try {
      const { db } = fresh.database;
      await db.execute(sql`delete from drizzle.__drizzle_migrations
        where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
      const behind = await fresh.app.inject({ method: 'GET', url: '/api/ready' });
      expect(behind.statusCode).toBe(503);
      expect(behind.json()).toEqual({
        status: 'unready',
        reason: 'The database migrations are not applied yet.',
      });
      await db.execute(sql`drop schema drizzle cascade`);
      const none = await fresh.app.inject({ method: 'GET', url: '/api/ready' });
      expect(none.statusCode).toBe(503);
      expect(none.json()).toEqual({
        status: 'unready',
        reason: 'The database migrations are not applied yet.',
      });
      // /api/health is liveness: the database answers, whatever its schema.
      expect((await fresh.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found.' });
  });

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/rest', '/rest/acl']),
    );
  });

  it('rate-limits API calls per address but not the SPA’s files', async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await limited.app.inject({ method: 'GET', url: '/rest/acl?authhash=x' })).statusCode);
      expect(statuses).toEqual([404, 404, 404, 429]);
      // Not an API path: served (here 404, no SPA built) without counting against the limit.
      for (let i = 0; i < 5; i++)
        expect((await limited.app.inject({ method: 'GET', url: '/admin/login' })).statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });

  it('sets security headers with a CSP that allows only our own and Stripe origins for scripts', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
