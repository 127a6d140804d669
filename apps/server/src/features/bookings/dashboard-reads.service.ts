import { count, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { waitlistEntries } from './bookings.tables.ts';

/** Event waitlist invitations still open (the dashboard's pending offers, issue 17). */
export async function openEventInvitations(db: Db, tenant: Tenant): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(waitlistEntries)
    .where(
      tenant.where(
        waitlistEntries,
        eq(waitlistEntries.status, 'invited'),
        gt(waitlistEntries.inviteExpiresAt, sql`now()`),
      ),
    );
  return row?.n ?? 0;
}
