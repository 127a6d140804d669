import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings } from './bookings.tables.ts';

/**
 * Event bookings confirmed since each company's start of month (its own time zone), for the
 * installation operator's Customers list (features/operators). One query for every company.
 */
export async function bookingsSince(
  db: Db,
  starts: { companyId: number; since: Date }[],
): Promise<Map<number, number>> {
  if (starts.length === 0) return new Map();
  const months = JSON.stringify(
    starts.map((s) => ({ company_id: s.companyId, since: s.since.toISOString() })),
  );
  // cross-tenant: the operator's Customers list counts every company's bookings (no row is read).
  const rows = await db.execute<{ company_id: number; n: number }>(sql`
    select m.company_id, count(${bookings.id})::int as n
    from jsonb_to_recordset(${months}::jsonb) as m(company_id int, since timestamptz)
    join ${bookings} on ${bookings.companyId} = m.company_id
      and ${bookings.status} = 'confirmed' and ${bookings.confirmedAt} >= m.since
    group by m.company_id`);
  return new Map(rows.rows.map((r) => [r.company_id, r.n]));
}
