import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
