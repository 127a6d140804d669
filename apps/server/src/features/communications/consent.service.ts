import { eq, inArray, type SQLWrapper, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { randomToken } from '../../platform/secrets.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { marketingConsents } from './consent.tables.ts';

/** 'inferred': no answer yet; marketing may go to them (with an unsubscribe link) until they withdraw. */
export type MarketingStatus = 'granted' | 'withdrawn' | 'inferred';
/** 'mail': the row was made to hold an unsubscribe token, with no answer. */
export type ConsentSource = 'parent' | 'staff' | 'unsubscribe-link' | 'mailchimp' | 'import' | 'mail';

/** Each family's marketing status; families without an answer are 'inferred'. */
export async function marketingStatusOf(
  db: Db,
  tenant: Tenant,
  parentIds: readonly number[],
): Promise<Map<number, MarketingStatus>> {
  const statuses = new Map<number, MarketingStatus>(parentIds.map((id) => [id, 'inferred']));
  if (parentIds.length === 0) return statuses;
  const rows = await db
    .select({ parentId: marketingConsents.parentId, status: marketingConsents.status })
    .from(marketingConsents)
    .where(tenant.where(marketingConsents, inArray(marketingConsents.parentId, [...parentIds])));
  for (const row of rows) statuses.set(row.parentId, row.status);
  return statuses;
}

/** Families of the company who withdrew (for audience queries that exclude them in SQL). */
export async function withdrawnParentIds(db: Db, tenant: Tenant): Promise<Set<number>> {
  const rows = await db
    .select({ parentId: marketingConsents.parentId })
    .from(marketingConsents)
    .where(tenant.where(marketingConsents, eq(marketingConsents.status, 'withdrawn')));
  return new Set(rows.map((row) => row.parentId));
}

/** Families of the company with this status (a subquery of parent ids, for mass mail audiences). */
export function familiesWithConsent(db: Db, tenant: Tenant, status: 'granted' | 'withdrawn'): SQLWrapper {
  return db
    .select({ parentId: marketingConsents.parentId })
    .from(marketingConsents)
    .where(tenant.where(marketingConsents, eq(marketingConsents.status, status)));
}

/** Records a family's answer. The caller checked that `parentId` is a family of `tenant`. */
export async function setMarketingConsent(
  db: Db,
  tenant: Tenant,
  parentId: number,
  granted: boolean,
  source: ConsentSource,
): Promise<void> {
  const status = granted ? ('granted' as const) : ('withdrawn' as const);
  await db
    .insert(marketingConsents)
    .values(tenant.values({ parentId, status, source, unsubscribeToken: randomToken() }))
    .onConflictDoUpdate({
      target: [marketingConsents.companyId, marketingConsents.parentId],
      set: { status, source, changedAt: sql`now()` },
    });
}

/**
 * The family's one-click unsubscribe link, for marketing mail: put it in the mail's data as
 * `unsubscribeUrl` and queueMail/queueRenderedMail add the List-Unsubscribe headers (RFC 8058).
 * The token is made once per family and kept, so every mail they ever got keeps working.
 */
export async function unsubscribeUrl(
  db: Db,
  tenant: Tenant,
  config: Config,
  parentId: number,
): Promise<string> {
  await db
    .insert(marketingConsents)
    .values(
      tenant.values({
        parentId,
        status: 'inferred' as const,
        source: 'mail',
        unsubscribeToken: randomToken(),
      }),
    )
    .onConflictDoNothing();
  const [row] = await db
    .select({ token: marketingConsents.unsubscribeToken })
    .from(marketingConsents)
    .where(tenant.where(marketingConsents, eq(marketingConsents.parentId, parentId)));
  return `${config.publicUrl}/unsubscribe/${row!.token}`;
}

/**
 * Withdraws marketing consent for the family whose link holds `token` (the unsubscribe page and
 * the one-click POST). Returns the company and family, or null for an unknown token. Repeating it
 * changes nothing.
 */
export async function unsubscribeByToken(
  db: Db,
  token: string,
): Promise<{ companyId: number; parentId: number } | null> {
  const [row] = await db
    .update(marketingConsents)
    .set({ status: 'withdrawn', source: 'unsubscribe-link', changedAt: sql`now()` })
    // cross-tenant: the unsubscribe link's token is what names the company.
    .where(eq(marketingConsents.unsubscribeToken, token))
    .returning({ companyId: marketingConsents.companyId, parentId: marketingConsents.parentId });
  return row ?? null;
}
