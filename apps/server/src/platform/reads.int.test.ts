import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventCells } from '../features/bookings/booking.service.ts';
import { createBookableEvent } from '../testing/booking-fixtures.ts';
import { createCompany } from '../testing/factories.ts';
import { createTestApp, type TestContext } from '../testing/harness.ts';
import { Tenant } from './tenancy.ts';

/**
 * Issue 21 point 29: the server logged "DeprecationWarning: Calling client.query() when the client
 * is already executing a query" because checkout and the waitlist read an event's cells with
 * Promise.all on a transaction's one connection. Every query sent to a busy connection is recorded.
 */
describe('no second query on a busy connection', () => {
  let t: TestContext;
  const overlaps: string[] = [];
  const query = pg.Client.prototype.query;

  beforeAll(async () => {
    t = await createTestApp();
    pg.Client.prototype.query = function (this: pg.Client & { activeQuery?: unknown }, ...args: unknown[]) {
      if (this.activeQuery)
        overlaps.push(String((args[0] as { text?: string })?.text ?? args[0]).slice(0, 120));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });
  afterEach(() => {
    overlaps.length = 0;
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    await t.close();
  });

  it("reads an event's cells inside a transaction one query at a time", async () => {
    const { db } = t.database;
    const company = await createCompany(db);
    const { event } = await createBookableEvent(db, company.id);
    const tenant = new Tenant(company.id);

    const inside = await db.transaction((tx) => eventCells(tx, tenant, event));
    expect(overlaps).toEqual([]);
    // The same answer as on the pool, where the reads do run at once.
    const outside = await eventCells(db, tenant, event);
    expect(inside.cells).toEqual(outside.cells);
    expect(inside.cells.length).toBeGreaterThan(0);
  });
});
