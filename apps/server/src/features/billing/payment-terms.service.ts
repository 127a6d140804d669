import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { paymentTerms } from './billing.tables.ts';

/** What a company's payment terms apply to; null when the id is not the company's. */
export async function paymentTermsKind(
  db: Db,
  tenant: Tenant,
  id: number,
): Promise<'events' | 'parties' | 'classes' | null> {
  const [row] = await db
    .select({ appliesTo: paymentTerms.appliesTo })
    .from(paymentTerms)
    .where(tenant.where(paymentTerms, eq(paymentTerms.id, id)));
  return row?.appliesTo ?? null;
}
