import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { insuranceProducts } from '../billing/billing.service.ts';
import { insuranceHeld } from '../bookings/family-bookings.service.ts';
import { children } from './students.tables.ts';

type Product = Awaited<ReturnType<typeof insuranceProducts>>[number];

/** The insurance a parent can buy at an event checkout, and per child the full cover still to buy. */
export interface InsuranceChoices {
  daily: Product | null;
  full: Product[];
  /** Per existing child (by id): the full-cover products it does not hold yet. */
  remaining: Map<number, number[]>;
}

/**
 * What the company sells (products not archived) and, for each of the parent's children, the
 * full-cover products not already bought on a confirmed booking (those are not offered again).
 */
export async function insuranceChoices(db: Db, tenant: Tenant, parentId: number): Promise<InsuranceChoices> {
  const [products, own] = await Promise.all([
    insuranceProducts(db, tenant),
    db
      .select({ id: children.id })
      .from(children)
      .where(tenant.where(children, eq(children.parentId, parentId))),
  ]);
  const childIds = own.map((c) => c.id);
  const bought = await insuranceHeld(db, tenant, childIds);
  const full = products.filter((p) => p.kind === 'full');
  const remaining = new Map(
    childIds.map((id) => {
      const owned = new Set(bought.filter((b) => b.childId === id).flatMap((b) => b.ids));
      return [id, full.map((p) => p.id).filter((pid) => !owned.has(pid))] as const;
    }),
  );
  return { daily: products.find((p) => p.kind === 'daily') ?? null, full, remaining };
}

/**
 * The checkout's insurance rule inputs (`childrenErrors` of @tumble/contracts/booking): whether any
 * insurance is sold, and the children with nothing left to buy (every full-cover product held and
 * no daily product), who are booked without a choice.
 */
export function insuranceRule(choices: InsuranceChoices): {
  insuranceOffered: boolean;
  fullyCovered: number[];
} {
  return {
    insuranceOffered: choices.daily !== null || choices.full.length > 0,
    fullyCovered:
      choices.daily === null && choices.full.length > 0
        ? [...choices.remaining].filter(([, ids]) => ids.length === 0).map(([id]) => id)
        : [],
  };
}
