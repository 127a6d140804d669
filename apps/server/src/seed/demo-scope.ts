import { hashPassword, randomToken } from '../platform/secrets.ts';
import type { Tenant } from '../platform/tenancy.ts';

/**
 * The one copy of the demo company a seed part writes into (seed/demo.ts seedDemoCompany): its
 * tenant, the domain of its people's addresses and the ids of its catalogue. Every per-company
 * part takes one, so the same part seeds the demo and each end-to-end spec's own copy.
 *
 * ```ts
 * const walker = await tx.select().from(users).where(scope.tenant.where(users, eq(users.email, scope.email('walker'))));
 * ```
 */
export interface DemoScope {
  tenant: Tenant;
  /** 'demo.test' for the demo. */
  emailDomain: string;
  /** The address of one of the company's people: email('walker') = 'walker@demo.test' in the demo. */
  email(local: string): string;
  venueId: number;
  events: { camp: number; ninja: number };
  timeZone: string;
  /**
   * A name that must be unique across the installation (a booking's reference): the demo keeps
   * the name as it always was; a copy adds its company id.
   */
  unique(name: string): string;
}

/** The coupon every demo company has (seed/demo.ts seeds it; the money reports use it). */
export const DEMO_COUPON = 'WELCOME10';

// argon2 is slow on purpose (tens of milliseconds a hash): copies of the demo share the same
// passwords, so one process hashes each password once and every copy reuses the hash.
const hashes = new Map<string, Promise<string>>();

/** The argon2 hash of a demo password, made once per process. */
export function demoPasswordHash(password: string): Promise<string> {
  let found = hashes.get(password);
  if (!found) {
    found = hashPassword(password);
    // A failed hash is not kept, so the next call tries again.
    found.catch(() => hashes.delete(password));
    hashes.set(password, found);
  }
  return found;
}

let noSignIn: Promise<string> | undefined;
/**
 * The hash of a random password nobody knows, for the demo's families that never sign in. One per
 * process: the password is never told, so sharing its hash gives nobody a way in.
 */
export function demoNoSignInHash(): Promise<string> {
  noSignIn ??= hashPassword(randomToken());
  return noSignIn;
}
