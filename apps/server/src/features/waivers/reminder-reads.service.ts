import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { staffTarget, waiverCoverage, waiverLink } from './waiver.service.ts';

/** What reminder emails (features/communications/reminders) read of waivers. */

export interface WaiverStillNeeded {
  email: string;
  name: string;
  /** First names of the people on this signing link who have no waiver yet. */
  children: string[];
  title: string;
  link: string;
}

/**
 * Who still needs to sign before an event booking or a party: one entry per signing link (a
 * booking's children share one; each party guest has their own), only people the current template
 * does not cover yet, only with an email. Empty when the company asks no waiver for this kind.
 */
export async function waiversStillNeeded(
  db: Db,
  tenant: Tenant,
  config: Config,
  authhash: string,
  kind: 'event' | 'party',
  bookingId: number,
): Promise<WaiverStillNeeded[]> {
  const target = await staffTarget(db, tenant, kind, bookingId);
  if (!target) return [];
  const coverage = await waiverCoverage(
    db,
    tenant,
    kind,
    target.people.map((p) => p.subject),
  );
  if (!coverage.required) return [];
  const byLink = new Map<string, WaiverStillNeeded>();
  for (const person of target.people) {
    if (coverage.covered.has(person.subject) || !person.parentEmail) continue;
    const entry = byLink.get(person.linkId) ?? {
      email: person.parentEmail,
      name: person.parentName,
      children: [],
      title: target.title,
      link: waiverLink(config, kind, person.linkId, authhash),
    };
    entry.children.push(person.firstName);
    byLink.set(person.linkId, entry);
  }
  return [...byLink.values()];
}
