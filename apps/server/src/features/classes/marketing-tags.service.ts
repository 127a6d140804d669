import { and, eq, gte, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { classEnrolments, classTypes, termClasses, terms } from './classes.tables.ts';

/**
 * The classes feature's read for the Mailchimp sync (features/communications/mailchimp): the class
 * types and terms of each child's current term places, by child id. Current: an active place
 * (enrolled or trial) in a term not over on `today` (the company's date) that the child has not
 * been withdrawn from before `today`.
 */
export async function currentClassTagsByChild(
  db: Db,
  tenant: Tenant,
  today: string,
): Promise<Map<number, { classType: string; term: string }[]>> {
  const rows = await db
    .selectDistinct({ childId: classEnrolments.childId, classType: classTypes.name, term: terms.name })
    .from(classEnrolments)
    .innerJoin(termClasses, eq(termClasses.id, classEnrolments.termClassId))
    .innerJoin(terms, eq(terms.id, termClasses.termId))
    .innerJoin(classTypes, eq(classTypes.id, termClasses.classTypeId))
    .where(
      tenant.where(
        classEnrolments,
        and(
          eq(classEnrolments.status, 'active'),
          inArray(classEnrolments.kind, ['enrolled', 'trial']),
          gte(terms.endDate, today),
          or(isNull(classEnrolments.withdrawnFrom), gte(classEnrolments.withdrawnFrom, today)),
        ),
      ),
    );
  const byChild = new Map<number, { classType: string; term: string }[]>();
  for (const row of rows) {
    const list = byChild.get(row.childId) ?? [];
    list.push({ classType: row.classType, term: row.term });
    byChild.set(row.childId, list);
  }
  return byChild;
}
