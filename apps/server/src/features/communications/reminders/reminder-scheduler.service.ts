import { type ReminderKind, reminderKinds } from '@tumble/contracts/reminders';
import { asc, eq } from 'drizzle-orm';
import type { AppDeps } from '../../../platform/deps.ts';
import { queues } from '../../../platform/jobs.ts';
import { queueMail } from '../../../platform/mail/mail.service.ts';
import { enabledModules } from '../../../platform/modules.ts';
import { Tenant } from '../../../platform/tenancy.ts';
import { companyOf } from '../../accounts/accounts.service.ts';
import { type FinderContext, type Occasion, occasionFinders } from './reminder-occasions.service.ts';
import { mailKindOf, type ReminderRuleRow } from './reminders.service.ts';
import { reminderRules, reminderSends } from './reminders.tables.ts';

/**
 * How late a reminder may still go: one due while the workers were down for longer is not sent
 * (a class reminder after the class is worse than none).
 */
export const GRACE_MS = 12 * 3_600_000;

/**
 * Every minute (reminders.jobs.ts): each switched-on rule of each active company sends the
 * reminders that fell due since `max(activeFrom, now - GRACE_MS)`. Each (kind, occasion,
 * recipient) is claimed in reminder_sends with ON CONFLICT DO NOTHING in the transaction that
 * queues the mail, so a rerun, a restart or a second worker process never sends it twice: a second
 * claim waits for the first transaction and then finds the row. Returns how many were sent.
 */
export async function runReminders(deps: AppDeps, now = new Date()): Promise<number> {
  const { db } = deps.database;
  const rules = await db
    .select()
    .from(reminderRules)
    // cross-tenant: the scheduler finds every company's switched-on rules; each runs in its own tenant.
    .where(eq(reminderRules.enabled, true))
    .orderBy(asc(reminderRules.companyId), asc(reminderRules.id));
  const byCompany = new Map<number, ReminderRuleRow[]>();
  for (const rule of rules) byCompany.set(rule.companyId, [...(byCompany.get(rule.companyId) ?? []), rule]);
  let sent = 0;
  for (const [companyId, companyRules] of byCompany) {
    const tenant = new Tenant(companyId);
    const company = await companyOf(db, tenant);
    // A suspended company, or one that turned the communications module off, sends no reminders.
    if (company.status !== 'active' || !(await enabledModules(db, tenant)).has('communications')) continue;
    for (const rule of companyRules) {
      if (!(reminderKinds as readonly string[]).includes(rule.kind)) continue;
      try {
        sent += await runRule(deps, tenant, { ...company, rule }, now);
      } catch (error) {
        // One rule's failure (e.g. a bad row) must not stop every other company's reminders.
        console.error(`[reminders] company ${companyId} rule ${rule.kind}:`, error);
      }
    }
  }
  if (sent > 0) await deps.jobs.nudge(queues.mailDeliver);
  return sent;
}

async function runRule(
  deps: AppDeps,
  tenant: Tenant,
  { rule, ...company }: FinderContext['company'] & { rule: ReminderRuleRow },
  now: Date,
): Promise<number> {
  const from = new Date(Math.max(rule.activeFrom?.getTime() ?? now.getTime(), now.getTime() - GRACE_MS));
  if (from >= now) return 0;
  const kind = rule.kind as ReminderKind;
  const occasions = await occasionFinders[kind]({
    db: deps.database.db,
    tenant,
    config: deps.config,
    company,
    amount: rule.amount,
    from,
    to: now,
  });
  let sent = 0;
  for (const occasion of occasions) {
    if (occasion.dueAt <= from || occasion.dueAt > now) continue;
    sent += await sendOccasion(deps, tenant, kind, occasion);
  }
  return sent;
}

/** One mail per person (address) of the occasion, each claimed once; queueMail uses the company's wording of the kind. */
async function sendOccasion(
  deps: AppDeps,
  tenant: Tenant,
  kind: ReminderKind,
  occasion: Occasion,
): Promise<number> {
  let sent = 0;
  const seen = new Set<string>();
  for (const recipient of occasion.recipients) {
    const address = recipient.email.trim().toLowerCase();
    if (!address || seen.has(address)) continue;
    seen.add(address);
    const claimed = await deps.database.db.transaction(async (tx) => {
      const [claim] = await tx
        .insert(reminderSends)
        .values(
          tenant.values({ kind, occasionKey: occasion.key, recipient: address, summary: occasion.summary }),
        )
        .onConflictDoNothing()
        .returning({ id: reminderSends.id });
      if (!claim) return false;
      const mailId = await queueMail(
        tx,
        tenant,
        deps.config,
        mailKindOf(kind),
        recipient.email,
        recipient.data,
      );
      await tx.update(reminderSends).set({ mailId }).where(tenant.byId(reminderSends, claim.id));
      return true;
    });
    if (claimed) sent++;
  }
  return sent;
}
