import { EXACT_TOTAL_LIMIT } from '@tumble/contracts/resources';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';

/**
 * The staff lists count exactly up to 10,000 rows; past that the total is "10,000+" (a flag), so a
 * 50,000-row list costs a bounded count (issue 19). Rows are made with generate_series: 10,001
 * bookings or payments take well under a second.
 */
describe('staff list totals past 10,000 rows', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let admin: Record<string, string>;
  let parentId: number;

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test' });
    admin = (
      await sessionFor(t.database.db, await createUser(t.database.db, company.id, { role: 'companyadmin' }))
    ).headers;
    parentId = (await createUser(t.database.db, company.id, { role: 'student' })).id;
  });
  afterAll(() => t.close());

  /** Bookings `from`…`to` of the event; odd ones confirmed, even ones cancelled. */
  async function addBookings(eventId: number, from: number, to: number) {
    await t.database.db.execute(sql`
      INSERT INTO bookings (company_id, parent_id, event_id, reference, code, status, quantity, pricing, total, provider, created_at)
      SELECT ${company.id}, ${parentId}, ${eventId}, 'lt-' || ${eventId} || '-' || n, 'LT' || ${eventId} || '-' || n,
             CASE WHEN n % 2 = 1 THEN 'confirmed' ELSE 'cancelled' END, 1 + n % 3, '{}'::jsonb, n * 100, 'test',
             now() - n * interval '1 minute'
      FROM generate_series(${from}::int, ${to}::int) AS n`);
  }

  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: admin });
    expect(response.statusCode).toBe(200);
    return response.json() as { data: Record<string, unknown>[]; total: number; totalIsEstimate?: boolean };
  };

  it('counts an event’s bookings exactly up to 10,000, then answers 10,000 flagged as an estimate', async () => {
    const { event } = await createBookableEvent(t.database.db, company.id);
    const list = `/api/v1/admin/events/${event.id}/bookings`;
    await addBookings(event.id, 1, EXACT_TOTAL_LIMIT);

    const exact = await get(`${list}?page=1&perPage=25`);
    expect(exact).toMatchObject({ total: 10_000, totalIsEstimate: false });
    expect(exact.data).toHaveLength(25);

    await addBookings(event.id, EXACT_TOTAL_LIMIT + 1, EXACT_TOTAL_LIMIT + 1);
    const estimated = await get(`${list}?page=1&perPage=25&sort=total&order=desc`);
    expect(estimated).toMatchObject({ total: 10_000, totalIsEstimate: true });
    // Sorted by an indexed column: the largest total is the 10,001st booking.
    expect(estimated.data[0]).toMatchObject({ total: (EXACT_TOTAL_LIMIT + 1) * 100 });

    // Pages past the estimate still answer rows: page 401 of 25 holds the 10,001st (oldest) one.
    const pastTheCount = await get(`${list}?page=401&perPage=25&sort=created_at&order=desc`);
    expect(pastTheCount.data.map((r) => r.code)).toEqual([`LT${event.id}-${EXACT_TOTAL_LIMIT + 1}`]);
    expect(pastTheCount).toMatchObject({ total: 10_000, totalIsEstimate: true });

    // A filter or search narrowing it below the limit is exact again.
    const confirmed = encodeURIComponent(JSON.stringify({ status: 'confirmed' }));
    expect(await get(`${list}?filter=${confirmed}`)).toMatchObject({ total: 5001, totalIsEstimate: false });
    expect(await get(`${list}?q=${encodeURIComponent(`lt${event.id}-1000`)}`)).toMatchObject({
      total: 3, // LT…-1000, LT…-10000 and LT…-10001
      totalIsEstimate: false,
    });
  });

  it('does the same for the company’s payments', async () => {
    const payments = '/api/v1/admin/payments';
    await t.database.db.execute(sql`
      INSERT INTO payments (company_id, purchase_kind, method, provider, provider_ref, parent_id, amount, status, paid_at)
      SELECT ${company.id}, 'event', 'card', 'test', 'lt-pay-' || ${company.id} || '-' || n, ${parentId}, n, 'paid', now()
      FROM generate_series(1, ${EXACT_TOTAL_LIMIT}::int) AS n`);
    expect(await get(`${payments}?page=1&perPage=25`)).toMatchObject({
      total: 10_000,
      totalIsEstimate: false,
    });

    await t.database.db.execute(sql`
      INSERT INTO payments (company_id, purchase_kind, method, provider, provider_ref, parent_id, amount, status)
      VALUES (${company.id}, 'event', 'card', 'test', ${`lt-pay-${company.id}-open`}, ${parentId}, 1, 'open')`);
    const estimated = await get(`${payments}?page=2&perPage=25&sort=amount&order=desc`);
    expect(estimated).toMatchObject({ total: 10_000, totalIsEstimate: true });
    expect(estimated.data[0]).toMatchObject({ amount: EXACT_TOTAL_LIMIT - 25 });

    const open = encodeURIComponent(JSON.stringify({ status: 'open' }));
    expect(await get(`${payments}?filter=${open}`)).toMatchObject({ total: 1, totalIsEstimate: false });
  });
});
