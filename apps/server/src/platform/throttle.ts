import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { authThrottle } from '../features/accounts/accounts.tables.ts';
import { AppError } from './errors.ts';

const WINDOW_MINUTES = 15;

/** Failed attempts allowed per window, by kind of key. */
export const THROTTLE_LIMITS = { account: 10, ip: 50 } as const;

export const TOO_MANY_ATTEMPTS = `Too many attempts. Please wait ${WINDOW_MINUTES} minutes and try again.`;

export const throttleKeys = (email: string, ip: string) => ({
  account: `account:${email.trim().toLowerCase()}`,
  ip: `ip:${ip}`,
});

/** Throws 429 with Retry-After when any key has used up its failures in the current window. */
export async function assertNotThrottled(db: Db, keys: { account: string; ip: string }): Promise<void> {
  const rows = await db
    .select()
    .from(authThrottle)
    .where(inArray(authThrottle.key, [keys.account, keys.ip]));
  const now = Date.now();
  for (const row of rows) {
    const limit = row.key === keys.account ? THROTTLE_LIMITS.account : THROTTLE_LIMITS.ip;
    const windowEnds = row.windowStartedAt.getTime() + WINDOW_MINUTES * 60_000;
    if (windowEnds > now && row.failures >= limit) {
      throw new AppError(429, TOO_MANY_ATTEMPTS, {
        'retry-after': String(Math.ceil((windowEnds - now) / 1000)),
      });
    }
  }
}

/** Counts one failure against each key; a key whose window has passed starts a new one. */
export async function recordFailure(db: Db, keys: { account: string; ip: string }): Promise<void> {
  const expired = sql`${authThrottle.windowStartedAt} < now() - make_interval(mins => ${WINDOW_MINUTES})`;
  await db
    .insert(authThrottle)
    .values([{ key: keys.account }, { key: keys.ip }].map((k) => ({ ...k, failures: 1 })))
    .onConflictDoUpdate({
      target: authThrottle.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${authThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${expired} then now() else ${authThrottle.windowStartedAt} end`,
      },
    });
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(authThrottle).where(inArray(authThrottle.key, [key]));
}
