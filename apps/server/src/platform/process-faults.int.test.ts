import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../db/client.ts';
import { freePort } from '../db/embedded.ts';
import { bookings } from '../features/bookings/bookings.tables.ts';
import { createBookableEvent } from '../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../testing/factories.ts';
import { createTestDatabase } from '../testing/harness.ts';
import { mailOutbox } from './mail/mail.tables.ts';
import { payments } from './payments/payments.tables.ts';
import { start as startStripeStub } from './payments/testing/stripe-stub.ts';

/**
 * The real server process (src/main.ts), killed and stopped the hard ways (issue 8, point 3).
 */
const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main.ts');

interface RunningServer {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Starting takes seconds, much longer on a busy machine (initdb, migrations, the demo seed).
  for (let i = 0; i < 1500 && !output.includes('ready on'); i++) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!output.includes('ready on')) throw new Error(`server did not start:\n${output}`);
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

describe('the server process under faults', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it('killed (SIGKILL) between hold and webhook: after a restart the retried webhook confirms once; an unpaid hold lapses on time', async () => {
    const stub = await startStripeStub();
    cleanups.push(() => stub.close());
    const testDb = await createTestDatabase();
    cleanups.push(() => testDb.drop());
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tumble-kill-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const database = connectDatabase(testDb.url, { max: 2 });
    cleanups.push(() => database.close());
    const { db } = database;
    const env = {
      DATABASE_URL: testDb.url,
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      WORKERS_IN_SERVER: 'false',
      STRIPE_SECRET_KEY: stub.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_stub',
      STRIPE_WEBHOOK_SECRET: stub.webhookSecret,
      STRIPE_API_BASE: stub.url,
    };

    let server = await startServer(env);
    cleanups.push(async () => server.child.kill('SIGKILL'));
    const company = await createCompany(db, { paymentMethod: 'stripe' });
    // One place only: the unpaid hold must give it back for the next parent.
    const fixture = await createBookableEvent(db, company.id, { capacity: 1 });
    const other = await createBookableEvent(db, company.id, { capacity: 5 });
    const checkout = async (target: typeof fixture) => {
      const parent = await sessionFor(db, await createUser(db, company.id, { role: 'student' }));
      const response = await fetch(`${server.url}/api/v1/booking/checkout?authhash=${company.authhash}`, {
        method: 'POST',
        headers: { ...parent.headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          event_id: target.event.id,
          quantity: 1,
          booked: [target.cell()],
          children: [
            { first_name: 'Sam', last_name: 'Lee', dob: '2019-03-03', insurance_type: 'daily_insurance' },
          ],
          amount: 4800,
          accept_terms: true,
        }),
      });
      return {
        status: response.status,
        body: (await response.json()) as { sessionId: string; booking_hash: string },
      };
    };
    const paid = await checkout(other);
    const unpaid = await checkout(fixture);
    expect([paid.status, unpaid.status]).toEqual([200, 200]);

    // The process dies with no chance to clean up, before the payment's webhook arrives.
    server.child.kill('SIGKILL');
    await server.exited;
    server = await startServer(env);

    stub.markPaid(paid.body.sessionId);
    const event = stub.checkoutEvent('checkout.session.completed', paid.body.sessionId);
    const deliver = () =>
      fetch(`${server.url}/integrations/stripe/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stub.signatureHeader(event.payload),
        },
        body: event.payload,
      });
    // Stripe retries until it gets a 2xx; a retry after success changes nothing.
    expect((await deliver()).status).toBe(200);
    expect((await deliver()).status).toBe(200);
    const [booking] = await db.select().from(bookings).where(eq(bookings.reference, paid.body.booking_hash));
    expect(booking!.status).toBe('confirmed');
    const recorded = await db
      .select()
      .from(payments)
      .where(and(eq(payments.purchaseKind, 'event'), eq(payments.purchaseId, booking!.id)));
    expect(recorded.map((p) => p.status)).toEqual(['paid']);
    const [mails] = await db
      .select({ n: count() })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'booking-confirmation'));
    expect(mails!.n).toBe(1);

    // The unpaid hold still holds the one place until its time is up...
    expect((await checkout(fixture)).status).toBe(409);
    // ...and not a moment longer (the clock moved past the hold's expiry).
    await db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(bookings.reference, unpaid.body.booking_hash));
    expect((await checkout(fixture)).status).toBe(200);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 240_000);

  it('SIGTERM finishes the requests in flight, then stops the embedded database cleanly', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tumble-term-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const server = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'true' });
    cleanups.push(async () => server.child.kill('SIGKILL'));
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    expect(existsSync(pidFile)).toBe(true);

    const page = `${server.url}/api/v1/booking/sessions?authhash=demo&e=${Buffer.from('1|1').toString('hex')}`;
    const outcomes: (number | string)[] = [];
    const finishedAt: number[] = [];
    // One connection per request (no keep-alive), so a request is either accepted or refused,
    // never sent on an idle connection the closing server is already dropping.
    const get = () =>
      new Promise<void>((resolve) => {
        let answered = false;
        const request = http.get(page, { agent: false }, (response) => {
          answered = true;
          response.resume();
          response.on('error', () => {
            outcomes.push('cut off mid-response');
            resolve();
          });
          response.on('end', () => {
            outcomes.push(response.statusCode ?? 0);
            finishedAt.push(Date.now());
            resolve();
          });
        });
        request.on('error', (error: Error & { code?: string }) => {
          outcomes.push(answered ? 'cut off mid-response' : (error.code ?? error.message));
          resolve();
        });
      });
    const requests = Array.from({ length: 60 }, get);
    await new Promise((r) => setTimeout(r, 30));
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await Promise.all(requests);
    const code = await server.exited;

    expect(code).toBe(0);
    expect(server.output()).toContain('SIGTERM: finishing requests in flight and stopping');
    expect(server.output()).toContain('stopped');
    // Every request either completed normally or was turned away whole: refused, reset while still
    // in the listen queue, or answered 503 by Fastify because it arrived after closing began. None
    // was cut off after it started, none failed.
    for (const outcome of outcomes) expect([200, 503, 'ECONNREFUSED', 'ECONNRESET']).toContain(outcome);
    expect(outcomes.filter((o) => o === 200).length).toBeGreaterThan(0);
    expect(finishedAt.some((at) => at >= signalledAt)).toBe(true);
    // PostgreSQL shut down cleanly: no postmaster left holding the data folder.
    expect(existsSync(pidFile)).toBe(false);
  }, 240_000);
});
