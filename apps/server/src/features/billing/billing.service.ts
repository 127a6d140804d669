import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { DEFAULT_TERMS_HTML } from './billing.resource.ts';
import { insurances, paymentTerms, surcharges } from './billing.tables.ts';

/** The insurance products on sale (not archived). */
export function insuranceProducts(db: Db, tenant: Tenant) {
  return db
    .select()
    .from(insurances)
    .where(tenant.where(insurances, isNull(insurances.archivedAt)))
    .orderBy(asc(insurances.id));
}

/** The card surcharge of a payment method, if the company charges one. */
export async function surchargeFor(db: Db, tenant: Tenant, provider: 'stripe' | 'square' | 'test') {
  const [row] = await db
    .select()
    .from(surcharges)
    .where(tenant.where(surcharges, eq(surcharges.paymentMethod, provider)));
  return row ? { label: row.name, kind: row.kind, amount: row.amount } : null;
}

/**
 * The payment terms that apply: the chosen terms (an event's choice) when they exist for that
 * kind, else the kind's default, else the newest terms of that kind, else SPEC.md's defaults.
 * Never "the first row found".
 */
export async function paymentTermsFor(
  db: Db,
  tenant: Tenant,
  kind: 'events' | 'parties',
  chosenId: number | null = null,
): Promise<string> {
  if (chosenId !== null) {
    const [chosen] = await db
      .select({ content: paymentTerms.content })
      .from(paymentTerms)
      .where(tenant.where(paymentTerms, eq(paymentTerms.id, chosenId), eq(paymentTerms.appliesTo, kind)));
    if (chosen) return chosen.content;
  }
  const [terms] = await db
    .select({ content: paymentTerms.content })
    .from(paymentTerms)
    .where(and(tenant.where(paymentTerms, eq(paymentTerms.appliesTo, kind))))
    .orderBy(desc(paymentTerms.isDefault), desc(paymentTerms.id))
    .limit(1);
  return terms?.content ?? DEFAULT_TERMS_HTML;
}
