import type { FormResponse } from '@tumble/contracts/http';
import {
  type ReminderKind,
  type ReminderRulesResponse,
  reminderInfo,
  reminderKinds,
  type SaveReminderRuleRequest,
  saveReminderRuleRequest,
} from '@tumble/contracts/reminders';
import { desc, eq } from 'drizzle-orm';
import type { AuthContext } from '../../../platform/auth.ts';
import type { AppDeps } from '../../../platform/deps.ts';
import { parseForm } from '../../../platform/forms.ts';
import { type MailKind, mailTemplates } from '../../../platform/mail/mail.templates.ts';
import type { Tenant } from '../../../platform/tenancy.ts';
import {
  listSystemEmails,
  resetSystemEmail,
  saveSystemEmail,
} from '../../settings/email-settings.service.ts';
import { reminderRules, reminderSends } from './reminders.tables.ts';

/**
 * A rule is its kind's on/off and N (reminder_rules); its wording is the company's wording of the
 * rule's mail kind, the same one the System emails page edits (features/settings), so a reminder
 * has one wording whichever page changed it.
 */

/** The mail kind (platform/mail/mail.templates.ts) each rule sends. */
export const mailKindOf = (kind: ReminderKind) => `reminder-${kind}` as MailKind;

/** A kind's default wording, as the pages edit it: paragraphs separated by blank lines. */
export function defaultWording(kind: ReminderKind): { subject: string; body: string } {
  const template = mailTemplates[mailKindOf(kind)];
  return { subject: template.subject, body: template.body.join('\n\n') };
}

export type ReminderRuleRow = typeof reminderRules.$inferSelect;

/** Every rule kind with the company's settings (off with the default N and wording when never saved), and the last 50 sent. */
export async function reminderRulesOf(deps: AppDeps, tenant: Tenant): Promise<ReminderRulesResponse> {
  const { db } = deps.database;
  const [rows, sent, wordings] = await Promise.all([
    db.select().from(reminderRules).where(tenant.where(reminderRules)),
    db
      .select()
      .from(reminderSends)
      .where(tenant.where(reminderSends))
      .orderBy(desc(reminderSends.sentAt), desc(reminderSends.id))
      .limit(50),
    listSystemEmails(deps, tenant),
  ]);
  const byKind = new Map(rows.map((row) => [row.kind, row]));
  const customOf = new Map(wordings.map((w) => [w.kind, w.custom]));
  return {
    rules: reminderKinds.map((kind) => {
      const info = reminderInfo[kind];
      const row = byKind.get(kind);
      const wording = defaultWording(kind);
      const custom = customOf.get(mailKindOf(kind)) ?? null;
      return {
        kind,
        title: info.title,
        sends: info.sends,
        enabled: row?.enabled ?? false,
        amount: row?.amount ?? info.defaultAmount,
        unit: info.unit,
        direction: info.direction,
        max_amount: info.maxAmount,
        subject: custom?.subject ?? wording.subject,
        body: custom?.body ?? wording.body,
        customised: custom !== null,
        default_subject: wording.subject,
        default_body: wording.body,
        placeholders: Object.entries(info.placeholders).map(([name, meaning]) => ({ name, meaning })),
      };
    }),
    sent: sent.map((row) => ({
      id: row.id,
      kind: row.kind as ReminderKind,
      title: reminderInfo[row.kind as ReminderKind]?.title ?? row.kind,
      to: row.recipient,
      occasion: row.summary,
      sent_at: row.sentAt.toISOString(),
    })),
  };
}

/**
 * Saves one rule. Switching it on, or changing its N while on, starts it afresh (`activeFrom` =
 * now): reminders that fell due before were due while it was off, or under another N, and are not
 * sent late. Wording equal to the default resets the kind's wording, so a better default reaches it.
 */
export async function saveReminderRule(
  deps: AppDeps,
  auth: AuthContext,
  body: SaveReminderRuleRequest | unknown,
  now = new Date(),
): Promise<FormResponse> {
  const form = parseForm(saveReminderRuleRequest, body);
  if (!form.ok) return form.response;
  const input = form.data;
  const { tenant } = auth;
  await deps.database.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(reminderRules)
      .where(tenant.where(reminderRules, eq(reminderRules.kind, input.kind)))
      .for('update');
    const restarts = input.enabled && (!existing?.enabled || existing.amount !== input.amount);
    const values = {
      enabled: input.enabled,
      amount: input.amount,
      activeFrom: !input.enabled ? null : restarts ? now : (existing?.activeFrom ?? now),
      updatedAt: now,
    };
    await tx
      .insert(reminderRules)
      .values(tenant.values({ kind: input.kind, ...values }))
      .onConflictDoUpdate({ target: [reminderRules.companyId, reminderRules.kind], set: values });
  });
  // The placeholders were checked above with the rule's schema (the same set as the mail kind's).
  const wording = defaultWording(input.kind);
  if (input.subject === wording.subject && input.body === wording.body)
    await resetSystemEmail(deps, auth, mailKindOf(input.kind));
  else
    await saveSystemEmail(deps, auth, mailKindOf(input.kind), { subject: input.subject, body: input.body });
  const title = reminderInfo[input.kind].title;
  return {
    valid: true,
    info: { title: 'Saved', message: `${title} is ${input.enabled ? 'on' : 'off'}.` },
  };
}
