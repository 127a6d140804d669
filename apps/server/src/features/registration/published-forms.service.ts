import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { registrationForms } from './registration.tables.ts';

/** The company's published registration forms by name: where a family invitation can land. */
export function publishedForms(db: Db, tenant: Tenant): Promise<{ key: string; name: string }[]> {
  return db
    .select({ key: registrationForms.key, name: registrationForms.name })
    .from(registrationForms)
    .where(
      tenant.where(
        registrationForms,
        and(eq(registrationForms.published, true), isNull(registrationForms.archivedAt)),
      ),
    )
    .orderBy(asc(registrationForms.name));
}
