import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { paymentMethods } from './billing.tables.ts';

/**
 * The provider checkout uses: the company's enabled default payment method (billing resource),
 * or null when it has none (the caller then falls back to the method set on the company).
 */
export async function defaultPaymentProvider(db: Db, tenant: Tenant) {
  const [row] = await db
    .select({ provider: paymentMethods.provider })
    .from(paymentMethods)
    .where(tenant.where(paymentMethods, eq(paymentMethods.enabled, true), eq(paymentMethods.isDefault, true)))
    .orderBy(asc(paymentMethods.id))
    .limit(1);
  return row?.provider ?? null;
}
