import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { registrationForms } from './registration.tables.ts';

/** What an enrolment purchase needs of the form it came through, archived or not; null when none. */
export async function formOfPurchase(
  db: Db,
  tenant: Tenant,
  formId: number | null,
): Promise<{ id: number; key: string; name: string; waiverId: number | null } | null> {
  if (formId === null) return null;
  const [form] = await db
    .select({
      id: registrationForms.id,
      key: registrationForms.key,
      name: registrationForms.name,
      waiverId: registrationForms.waiverId,
    })
    .from(registrationForms)
    .where(tenant.where(registrationForms, eq(registrationForms.id, formId)));
  return form ?? null;
}
