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

/** The daily insurance on sale (the first, if staff made several), or null: the booking page offers it. */
export async function dailyInsuranceId(db: Db, tenant: Tenant): Promise<number | null> {
  const [daily] = await db
    .select({ id: insurances.id })
    .from(insurances)
    .where(tenant.where(insurances, eq(insurances.kind, 'daily'), isNull(insurances.archivedAt)))
    .orderBy(insurances.id)
    .limit(1);
  return daily?.id ?? null;
}

/** The card surcharge of a payment method, if the company charges one. */
export async function surchargeFor(db: Db, tenant: Tenant, provider: 'stripe' | 'square' | 'test') {
  const [row] = await db
    .select()
    .from(surcharges)
    .where(tenant.where(surcharges, eq(surcharges.paymentMethod, provider)));
  return row ? { label: row.name, kind: row.kind, amount: row.amount } : null;
}

/** The party terms when a company has written none (SPEC.md's default terms are the holiday program's). */
export const DEFAULT_PARTY_TERMS_HTML = [
  '<p>A deposit is paid at the time of booking; the balance is due on the day of the party.</p>',
  '<p>Deposits are non-refundable for change of mind.</p>',
  '<p>If the gym has to close, we will refund the deposit or move your party to another date.</p>',
].join('');

/**
 * The payment terms that apply: the chosen terms (an event's choice) when they exist for that
 * kind, else the kind's default, else the newest terms of that kind, else the built-in defaults.
 * Never "the first row found".
 */
export async function paymentTermsFor(
  db: Db,
  tenant: Tenant,
  kind: 'events' | 'parties' | 'classes',
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
  return terms?.content ?? (kind === 'parties' ? DEFAULT_PARTY_TERMS_HTML : DEFAULT_TERMS_HTML);
}
