import { asc, ilike, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { children } from './students.tables.ts';

/** `%`, `_` and `\` typed by staff are letters, not patterns. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The company's children whose names start with the words staff typed
 * (a class's "Enrol a child"), by name; at most `limit`.
 */
export async function searchChildren(db: Db, tenant: Tenant, q: string, limit = 20) {
  const words = q.trim().split(/\s+/).filter(Boolean).map(literal);
  return db
    .select({
      id: children.id,
      parentId: children.parentId,
      firstName: children.firstName,
      lastName: children.lastName,
      dob: children.dob,
    })
    .from(children)
    .where(
      tenant.where(
        children,
        // Every word starts the first or the last name ("mia t" finds Mia Tran).
        ...words.map((word) =>
          or(ilike(children.firstName, `${word}%`), ilike(children.lastName, `${word}%`)),
        ),
      ),
    )
    .orderBy(asc(children.firstName), asc(children.lastName), asc(children.id))
    .limit(limit);
}
