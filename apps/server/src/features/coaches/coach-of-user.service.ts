import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { coaches } from './coaches.tables.ts';

/** The coach profile of a signed-in staff user (the roll shows a coach their own sessions), or null. */
export async function coachIdOfUser(db: Db, tenant: Tenant, userId: number): Promise<number | null> {
  const [coach] = await db
    .select({ id: coaches.id })
    .from(coaches)
    .where(tenant.where(coaches, eq(coaches.userId, userId)));
  return coach?.id ?? null;
}

/** The coaches' names by id (timetable, roll): coaches.service's `namesOfCoaches`. */
export { namesOfCoaches as coachNames } from './coaches.service.ts';
