import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { contactNotes, contacts } from './crm.tables.ts';

/** The CRM contact a family came from loses its details and its notes; the lead's stage and source stay. */
export async function eraseFamilyContacts(tx: Db, tenant: Tenant, parentId: number, placeholder: string) {
  const rows = await tx
    .update(contacts)
    .set({ fullName: placeholder, email: null, phone: null, children: [], interest: null })
    .where(tenant.where(contacts, eq(contacts.parentId, parentId)))
    .returning({ id: contacts.id });
  if (rows.length === 0) return;
  await tx.delete(contactNotes).where(
    tenant.where(
      contactNotes,
      inArray(
        contactNotes.contactId,
        rows.map((r) => r.id),
      ),
    ),
  );
}
