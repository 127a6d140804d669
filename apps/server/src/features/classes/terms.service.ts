import { asc, eq, gte, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { CalendarTerm } from './calendar/term-calendar.ts';
import { termClosures, terms } from './classes.tables.ts';

/** The refusal of a second term with the same name over the same days (calendar and form alike). */
export const overlappingTermMessage = (name: string) => `Another term named “${name}” overlaps these dates.`;

/**
 * Makes the company's term-name check one writer at a time until the transaction ends, so two staff
 * saving the same term at once get one term and one refusal (form and calendar alike).
 */
export async function lockTermNames(tx: Db, tenant: Tenant): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`term-names:${tenant.companyId}`}))`);
}

/**
 * Whether another live term of this company has this name (ignoring case and spaces around it)
 * and shares at least one day with `startDate`–`endDate`. `exceptId`: the term being edited.
 */
export async function overlappingTermNamed(
  db: Db,
  tenant: Tenant,
  term: { name: string; startDate: string; endDate: string; exceptId?: number | null },
): Promise<boolean> {
  const [found] = await db
    .select({ id: terms.id })
    .from(terms)
    .where(
      tenant.where(
        terms,
        isNull(terms.archivedAt),
        sql`lower(trim(${terms.name})) = lower(trim(${term.name}))`,
        lte(terms.startDate, term.endDate),
        gte(terms.endDate, term.startDate),
        term.exceptId ? ne(terms.id, term.exceptId) : undefined,
      ),
    )
    .limit(1);
  return found !== undefined;
}

/** One term of this company (archived ones too: history points at them), or undefined. */
export async function termOf(db: Db, tenant: Tenant, id: number) {
  const [term] = await db.select().from(terms).where(tenant.byId(terms, id));
  return term;
}

/** A term's closures by date: the days its classes do not run (`closed`) or are not charged. */
export async function closuresOf(db: Db, tenant: Tenant, termId: number) {
  return db
    .select()
    .from(termClosures)
    .where(tenant.where(termClosures, eq(termClosures.termId, termId)))
    .orderBy(asc(termClosures.startDate), asc(termClosures.id));
}

/** How many of a term's closures reach outside `startDate`–`endDate` (a term being shortened). */
export async function closuresOutside(
  db: Db,
  tenant: Tenant,
  termId: number,
  startDate: string,
  endDate: string,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(termClosures)
    .where(
      tenant.where(
        termClosures,
        eq(termClosures.termId, termId),
        or(sql`${termClosures.startDate} < ${startDate}`, sql`${termClosures.endDate} > ${endDate}`),
      ),
    );
  return row?.n ?? 0;
}

/**
 * Creates a term from the built-in calendar with its public holidays as `closed` closures, in one
 * transaction, refusing a second term of the same name over the same days. Returns the new term's id, or the refusal message.
 */
export async function createTermFromCalendar(
  db: Db,
  tenant: Tenant,
  offer: CalendarTerm,
): Promise<{ id: number } | { refused: string }> {
  return db.transaction(async (tx) => {
    await lockTermNames(tx, tenant);
    const clash = await overlappingTermNamed(tx, tenant, {
      name: offer.name,
      startDate: offer.startDate,
      endDate: offer.endDate,
    });
    if (clash) return { refused: overlappingTermMessage(offer.name) };
    const [term] = await tx
      .insert(terms)
      .values(
        tenant.values({
          name: offer.name,
          startDate: offer.startDate,
          endDate: offer.endDate,
          region: offer.region,
        }),
      )
      .returning({ id: terms.id });
    if (!term) throw new Error('the term was not inserted');
    if (offer.closures.length)
      await tx.insert(termClosures).values(
        offer.closures.map((c) =>
          tenant.values({
            termId: term.id,
            startDate: c.startDate,
            endDate: c.endDate,
            reason: c.reason,
            kind: 'closed' as const,
          }),
        ),
      );
    return { id: term.id };
  });
}
