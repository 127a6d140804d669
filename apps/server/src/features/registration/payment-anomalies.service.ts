import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type NewAnomaly, recordAnomaly } from './registration.service.ts';
import { registrationAnomalies } from './registration.tables.ts';

/**
 * Records a purchase's anomaly of one kind unless it has one already (a failed payment is listed
 * once per purchase however many cards were declined). The caller holds the purchase's row lock,
 * so two settlements at once cannot both insert.
 */
export async function recordAnomalyOnce(
  tx: Db,
  tenant: Tenant,
  anomaly: NewAnomaly & { purchaseId: number },
): Promise<boolean> {
  const [existing] = await tx
    .select({ id: registrationAnomalies.id })
    .from(registrationAnomalies)
    .where(
      tenant.where(
        registrationAnomalies,
        eq(registrationAnomalies.kind, anomaly.kind),
        eq(registrationAnomalies.purchaseId, anomaly.purchaseId),
      ),
    )
    .limit(1);
  if (existing) return false;
  await recordAnomaly(tx, tenant, anomaly);
  return true;
}
