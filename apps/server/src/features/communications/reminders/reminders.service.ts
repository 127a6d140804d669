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
import type { Db } from '../../../db/client.ts';
import { parseForm } from '../../../platform/forms.ts';
import { type MailKind, mailTemplates } from '../../../platform/mail/mail.templates.ts';
import type { Tenant } from '../../../platform/tenancy.ts';
import { reminderRules, reminderSends } from './reminders.tables.ts';

/** The mail kind (platform/mail/mail.templates.ts) each rule sends. */
export const mailKindOf = (kind: ReminderKind) => `reminder-${kind}` as MailKind;

/** A kind's default wording, as the page edits it: paragraphs separated by blank lines. */
export function defaultWording(kind: ReminderKind): { subject: string; body: string } {
  const template = mailTemplates[mailKindOf(kind)];
  return { subject: template.subject, body: template.body.join('\n\n') };
}

export type ReminderRuleRow = typeof reminderRules.$inferSelect;

/** Every rule kind with the company's settings (off with the default N and wording when never saved), and the last 50 sent. */
export async function reminderRulesOf(db: Db, tenant: Tenant): Promise<ReminderRulesResponse> {
  const [rows, sent] = await Promise.all([
    db.select().from(reminderRules).where(tenant.where(reminderRules)),
    db
      .select()
      .from(reminderSends)
      .where(tenant.where(reminderSends))
      .orderBy(desc(reminderSends.sentAt), desc(reminderSends.id))
      .limit(50),
  ]);
  const byKind = new Map(rows.map((row) => [row.kind, row]));
  return {
    rules: reminderKinds.map((kind) => {
      const info = reminderInfo[kind];
      const row = byKind.get(kind);
      const wording = defaultWording(kind);
      return {
        kind,
        title: info.title,
        sends: info.sends,
        enabled: row?.enabled ?? false,
        amount: row?.amount ?? info.defaultAmount,
        unit: info.unit,
        direction: info.direction,
        max_amount: info.maxAmount,
        subject: row?.subject ?? wording.subject,
        body: row?.body ?? wording.body,
        customised: row?.subject != null,
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
 * sent late. Wording equal to the default is stored as none, so a better default reaches the rule.
 */
export async function saveReminderRule(
  db: Db,
  tenant: Tenant,
  body: SaveReminderRuleRequest | unknown,
  now = new Date(),
): Promise<FormResponse> {
  const form = parseForm(saveReminderRuleRequest, body);
  if (!form.ok) return form.response;
  const input = form.data;
  const wording = defaultWording(input.kind);
  const custom = input.subject !== wording.subject || input.body !== wording.body;
  await db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(reminderRules)
      .where(tenant.where(reminderRules, eq(reminderRules.kind, input.kind)))
      .for('update');
    const restarts = input.enabled && (!existing?.enabled || existing.amount !== input.amount);
    const values = {
      enabled: input.enabled,
      amount: input.amount,
      subject: custom ? input.subject : null,
      body: custom ? input.body : null,
      activeFrom: !input.enabled ? null : restarts ? now : (existing?.activeFrom ?? now),
      updatedAt: now,
    };
    await tx
      .insert(reminderRules)
      .values(tenant.values({ kind: input.kind, ...values }))
      .onConflictDoUpdate({ target: [reminderRules.companyId, reminderRules.kind], set: values });
  });
  const title = reminderInfo[input.kind].title;
  return {
    valid: true,
    info: { title: 'Saved', message: `${title} is ${input.enabled ? 'on' : 'off'}.` },
  };
}
