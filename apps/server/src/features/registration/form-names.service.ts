import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { registrationForms } from './registration.tables.ts';

/** The registration forms' names (archived ones too), by form id: how reports name a lead source. */
export async function namesOfForms(db: Db, tenant: Tenant, formIds: number[]): Promise<Map<number, string>> {
  const ids = [...new Set(formIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: registrationForms.id, name: registrationForms.name })
    .from(registrationForms)
    .where(tenant.where(registrationForms, inArray(registrationForms.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}
