import { eq, inArray, sql } from 'drizzle-orm';
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

/** Reset requests count apart from sign-ins: a locked-out user can still ask for a reset mail. */
export const resetThrottleKeys = (email: string, ip: string) => ({
  account: `reset:${email.trim().toLowerCase()}`,
  ip: `reset-ip:${ip}`,
});

const expired = sql`${authThrottle.windowStartedAt} < now() - make_interval(mins => ${WINDOW_MINUTES})`;

/**
 * Counts one attempt against each key BEFORE the password is checked, and throws 429 with
 * Retry-After when a key has used up its allowance in the current window. Checking and counting in
 * one statement per key (the row lock serialises callers) means parallel guesses cannot all pass a
 * check made before any of them had failed. A key whose window has passed starts a new one.
 */
export async function countAttempt(db: Db, keys: { account: string; ip: string }): Promise<void> {
  await db.transaction(async (tx) => {
    // Always account, then ip: one lock order, so two attempts cannot deadlock.
    for (const kind of ['account', 'ip'] as const) {
      const [counted] = await tx
        .insert(authThrottle)
        .values({ key: keys[kind], failures: 1 })
        .onConflictDoUpdate({
          target: authThrottle.key,
          set: {
            failures: sql`case when ${expired} then 1 else ${authThrottle.failures} + 1 end`,
            windowStartedAt: sql`case when ${expired} then now() else ${authThrottle.windowStartedAt} end`,
          },
          // A key at its limit is left as it is: the attempt is refused, not counted.
          setWhere: sql`${expired} or ${authThrottle.failures} < ${THROTTLE_LIMITS[kind]}`,
        })
        .returning({ key: authThrottle.key });
      if (counted) continue;
      const [row] = await tx
        .select({ windowStartedAt: authThrottle.windowStartedAt })
        .from(authThrottle)
        .where(eq(authThrottle.key, keys[kind]));
      const windowEnds = (row?.windowStartedAt.getTime() ?? Date.now()) + WINDOW_MINUTES * 60_000;
      // Throwing rolls back the other key's count too.
      throw new AppError(429, TOO_MANY_ATTEMPTS, {
        'retry-after': String(Math.max(1, Math.ceil((windowEnds - Date.now()) / 1000))),
      });
    }
  });
}

/** Takes back the count of an attempt that succeeded (a busy shared address is not a guesser). */
export async function forgiveAttempt(db: Db, key: string): Promise<void> {
  await db
    .update(authThrottle)
    .set({ failures: sql`greatest(${authThrottle.failures} - 1, 0)` })
    .where(eq(authThrottle.key, key));
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(authThrottle).where(inArray(authThrottle.key, [key]));
}
