import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { MovedCounts } from '../students/merge-rows.ts';
import { marketingConsents } from './consent.tables.ts';
import { massMailRecipients } from './mass-mail.tables.ts';

/**
 * A family merge (features/students/merge.service.ts): what communications hold about the
 * duplicate family.
 * - Mass mail recipients move, except where both families got the same mass mail: the duplicate's
 *   row goes (the mail itself stays in the outbox).
 * - Marketing consent: one answer per family. A withdrawal by either wins (the same person said no
 *   once); otherwise the kept family's answer stands, or the duplicate's when the kept had none.
 * - Mailchimp members stay with the retired duplicate on purpose: the sync archives the members of
 *   disabled families in Mailchimp and sends the kept family as it is.
 */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  const keptMails = tx
    .select({ id: massMailRecipients.massMailId })
    .from(massMailRecipients)
    .where(tenant.where(massMailRecipients, eq(massMailRecipients.parentId, to)));
  const dropped = await tx
    .delete(massMailRecipients)
    .where(
      tenant.where(
        massMailRecipients,
        eq(massMailRecipients.parentId, from),
        inArray(massMailRecipients.massMailId, keptMails),
      ),
    )
    .returning({ id: massMailRecipients.id });
  const moved = await tx
    .update(massMailRecipients)
    .set({ parentId: to })
    .where(tenant.where(massMailRecipients, eq(massMailRecipients.parentId, from)))
    .returning({ id: massMailRecipients.id });

  return {
    mass_mail_recipients: dropped.length + moved.length,
    marketing_consents: await mergeConsent(tx, tenant, from, to),
    'mailchimp_members (stay with the duplicate, archived by the next sync)': 0,
  };
}

async function mergeConsent(tx: Db, tenant: Tenant, from: number, to: number): Promise<number> {
  const rows = await tx
    .select()
    .from(marketingConsents)
    .where(tenant.where(marketingConsents, inArray(marketingConsents.parentId, [from, to])));
  const duplicate = rows.find((row) => row.parentId === from);
  if (!duplicate) return 0;
  const kept = rows.find((row) => row.parentId === to);
  if (!kept) {
    await tx
      .update(marketingConsents)
      .set({ parentId: to })
      .where(tenant.byId(marketingConsents, duplicate.id));
    return 1;
  }
  if (duplicate.status === 'withdrawn' && kept.status !== 'withdrawn') {
    await tx
      .update(marketingConsents)
      .set({ status: 'withdrawn', source: duplicate.source, changedAt: sql`now()` })
      .where(tenant.byId(marketingConsents, kept.id));
  }
  // The duplicate's unsubscribe token goes with its row: links in mail it was sent stop working,
  // and the kept family's links hold its answer.
  await tx.delete(marketingConsents).where(and(tenant.byId(marketingConsents, duplicate.id)));
  return 1;
}
