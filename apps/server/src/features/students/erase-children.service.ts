import { eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { flagAssignments } from './flags.tables.ts';
import { children } from './students.tables.ts';

/** The date of birth an erased child keeps (the column is required; this one says "unknown"). */
export const ERASED_DOB = '1900-01-01';

/**
 * A family's children lose their names, date of birth, medical notes, allergies, emergency
 * contacts and school, and every flag on them or their parent goes. The rows stay, so bookings,
 * rolls and invoices keep their counts. Returns the names they had (for the caller's search).
 */
export async function eraseChildren(
  tx: Db,
  tenant: Tenant,
  parentId: number,
): Promise<{ id: number; names: string[] }[]> {
  const rows = await tx
    .select({ id: children.id, firstName: children.firstName, lastName: children.lastName })
    .from(children)
    .where(tenant.where(children, eq(children.parentId, parentId)))
    .for('update');
  for (const [index, child] of rows.entries()) {
    await tx
      .update(children)
      .set({
        firstName: 'Erased',
        lastName: `child ${index + 1}`,
        dob: ERASED_DOB,
        consent: false,
        medicalNotes: null,
        allergies: null,
        emergencyContacts: [],
        school: null,
      })
      .where(tenant.byId(children, child.id));
  }
  const childIds = rows.map((c) => c.id);
  await tx
    .delete(flagAssignments)
    .where(
      tenant.where(
        flagAssignments,
        or(
          eq(flagAssignments.parentId, parentId),
          childIds.length ? inArray(flagAssignments.childId, childIds) : undefined,
        ),
      ),
    );
  return rows.map((c) => ({ id: c.id, names: [`${c.firstName} ${c.lastName}`, c.firstName, c.lastName] }));
}
