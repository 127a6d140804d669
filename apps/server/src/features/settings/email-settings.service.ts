import {
  type EmailSettingsUpdate,
  type EmailSettingsView,
  type MailPreview,
  type SystemEmailView,
  systemEmailWording,
} from '@tumble/contracts/email-settings';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { newFileKey, sniffImage } from '../../platform/files.ts';
import { queues } from '../../platform/jobs.ts';
import { mailFromAddress, mailLookOf, queueRenderedMail } from '../../platform/mail/mail.service.ts';
import { emailSettings, systemEmails } from '../../platform/mail/mail.tables.ts';
import {
  applyMailLook,
  escapeHtml,
  isMailKind,
  type MailKind,
  type MailTemplate,
  mailTemplates,
  placeholdersOf,
  renderMail,
  SAMPLE_DATA,
} from '../../platform/mail/mail.templates.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { companyOf, logoUrl } from '../accounts/accounts.service.ts';

/**
 * System emails (SPEC system-emails) and email settings (SPEC settings/emails): a company's own
 * wording of each kind of mail the product sends (`system_emails`, read by queueMail), and the
 * sender name, reply-to, footer and logo every mail of the company carries (applied in
 * queueRenderedMail). Wording is checked with the same schema the page uses: only the kind's own
 * placeholders.
 */

const kindOf = (kind: string): MailKind => {
  if (!isMailKind(kind)) throw new NotFoundError();
  return kind;
};

const eqKind = (kind: MailKind) => eq(systemEmails.kind, kind);

const wordingOf = (kind: MailKind, body: unknown) => systemEmailWording(placeholdersOf(kind)).parse(body);

export async function listSystemEmails(deps: AppDeps, tenant: Tenant): Promise<SystemEmailView[]> {
  const rows = await deps.database.db.select().from(systemEmails).where(tenant.where(systemEmails));
  const custom = new Map(rows.map((r) => [r.kind, r]));
  return (Object.entries(mailTemplates) as [MailKind, MailTemplate][]).map(([kind, template]) => {
    const own = custom.get(kind);
    return {
      kind,
      label: template.label,
      sent: template.sent,
      placeholders: Object.entries(template.placeholders).map(([name, description]) => ({
        name,
        description,
      })),
      default_subject: template.subject,
      default_body: template.body.join('\n\n'),
      custom: own ? { subject: own.subject, body: own.body } : null,
    };
  });
}

/** Stores a company's wording of one kind (400 with the message for an unknown placeholder). */
export async function saveSystemEmail(deps: AppDeps, auth: AuthContext, kindParam: string, body: unknown) {
  const kind = kindOf(kindParam);
  const wording = wordingOf(kind, body);
  const { tenant } = auth;
  await deps.database.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(systemEmails)
      .where(tenant.where(systemEmails, eqKind(kind)));
    const [after] = await tx
      .insert(systemEmails)
      .values(tenant.values({ kind, ...wording }))
      .onConflictDoUpdate({ target: [systemEmails.companyId, systemEmails.kind], set: wording })
      .returning();
    await recordAudit(tx, auth, {
      action: before ? 'update' : 'create',
      entity: 'system_email',
      entityId: after!.id,
      before: before ?? null,
      after: after!,
    });
  });
}

/** "Reset to default": the company's wording of the kind is deleted; a kind never reworded is a no-op. */
export async function resetSystemEmail(deps: AppDeps, auth: AuthContext, kindParam: string) {
  const kind = kindOf(kindParam);
  const { tenant } = auth;
  await deps.database.db.transaction(async (tx) => {
    const [before] = await tx
      .delete(systemEmails)
      .where(tenant.where(systemEmails, eqKind(kind)))
      .returning();
    if (before)
      await recordAudit(tx, auth, { action: 'delete', entity: 'system_email', entityId: before.id, before });
  });
}

/**
 * The mail as it will be sent, with sample data (the company's own name for {{company}}) and the
 * company's email settings: rendered by the same renderMail and applyMailLook the mail uses.
 */
async function sample(db: Db, tenant: Tenant, config: Config, kind: MailKind, body: unknown) {
  const wording = wordingOf(kind, body);
  const company = await companyOf(db, tenant);
  const rendered = renderMail(kind, { ...SAMPLE_DATA, company: company.name }, wording);
  return { ...rendered, ...applyMailLook(rendered, await mailLookOf(db, tenant, config)) };
}

export async function previewSystemEmail(
  deps: AppDeps,
  tenant: Tenant,
  kindParam: string,
  body: unknown,
): Promise<MailPreview> {
  const { subject, text, html } = await sample(
    deps.database.db,
    tenant,
    deps.config,
    kindOf(kindParam),
    body,
  );
  return { subject, text, html };
}

/** Mails the signed-in staff member the wording with sample data, through the outbox. */
export async function sendSystemEmailTest(
  deps: AppDeps,
  auth: AuthContext,
  kindParam: string,
  body: unknown,
) {
  const kind = kindOf(kindParam);
  const { tenant } = auth;
  const wording = wordingOf(kind, body);
  await deps.database.db.transaction(async (tx) => {
    const company = await companyOf(tx, tenant);
    // queueRenderedMail adds the footer and logo, as to every mail.
    const mail = renderMail(kind, { ...SAMPLE_DATA, company: company.name }, wording);
    await queueRenderedMail(tx, tenant, deps.config, {
      kind: 'test',
      to: auth.email,
      subject: `[Test] ${mail.subject}`,
      text: mail.text,
      html: mail.html,
      data: {},
    });
  });
  await deps.jobs.nudge(queues.mailDeliver);
  return { to: auth.email };
}

// --- Email settings --------------------------------------------------------------------------------

async function settingsRow(db: Db, tenant: Tenant) {
  const [row] = await db.select().from(emailSettings).where(tenant.where(emailSettings)).limit(1);
  return row ?? null;
}

export async function getEmailSettings(deps: AppDeps, tenant: Tenant): Promise<EmailSettingsView> {
  const { db } = deps.database;
  const row = await settingsRow(db, tenant);
  const company = await companyOf(db, tenant);
  return {
    from_name: row?.fromName ?? '',
    reply_to: row?.replyTo ?? '',
    footer: row?.footer ?? '',
    logo: row?.logo ?? 'none',
    own_logo: logoUrl(row?.logoFile ?? null),
    company_logo: logoUrl(company.logoFile),
    from_address: mailFromAddress(deps.config),
    company_name: company.name,
  };
}

export async function saveEmailSettings(deps: AppDeps, auth: AuthContext, input: EmailSettingsUpdate) {
  const { tenant } = auth;
  const values = {
    fromName: input.from_name,
    replyTo: input.reply_to,
    footer: input.footer,
    logo: input.logo,
  };
  await deps.database.db.transaction(async (tx) => {
    const before = await settingsRow(tx, tenant);
    if (values.logo === 'own' && !before?.logoFile)
      throw new BadRequestError('Please upload a logo first, or choose another.');
    const [after] = await tx
      .insert(emailSettings)
      .values(tenant.values(values))
      .onConflictDoUpdate({ target: emailSettings.companyId, set: values })
      .returning();
    await recordAudit(tx, auth, {
      action: before ? 'update' : 'create',
      entity: 'email_settings',
      entityId: after!.id,
      before,
      after: after!,
    });
  });
  return getEmailSettings(deps, tenant);
}

export const EMAIL_LOGO_MAX_BYTES = 1024 * 1024;

/** An uploaded logo for mail: PNG, JPEG or GIF (what mail programs show), up to 1 MB; it is then used. */
export async function replaceEmailLogo(deps: AppDeps, auth: AuthContext, data: Buffer) {
  if (data.length > EMAIL_LOGO_MAX_BYTES) throw new BadRequestError('The logo must be at most 1 MB.');
  const image = sniffImage(data);
  if (!image || !['png', 'jpg', 'gif'].includes(image.extension))
    throw new BadRequestError('The logo in emails must be a PNG, JPEG or GIF image.');
  const { tenant } = auth;
  const key = newFileKey('public', tenant.companyId, image.extension);
  await deps.files.put(key, data);
  const old = await deps.database.db.transaction(async (tx) => {
    const before = await settingsRow(tx, tenant);
    const [after] = await tx
      .insert(emailSettings)
      .values(tenant.values({ logoFile: key, logo: 'own' as const }))
      .onConflictDoUpdate({ target: emailSettings.companyId, set: { logoFile: key, logo: 'own' } })
      .returning();
    await recordAudit(tx, auth, {
      action: 'upload logo',
      entity: 'email_settings',
      entityId: after!.id,
      before: before ? { logoFile: before.logoFile, logo: before.logo } : null,
      after: { logoFile: after!.logoFile, logo: after!.logo },
    });
    return before?.logoFile ?? null;
  });
  if (old) await deps.files.delete(old);
  return getEmailSettings(deps, tenant);
}

/** Removes the uploaded logo (mail then shows none); without one it changes nothing. */
export async function deleteEmailLogo(deps: AppDeps, auth: AuthContext) {
  const { tenant } = auth;
  const old = await deps.database.db.transaction(async (tx) => {
    const before = await settingsRow(tx, tenant);
    if (!before?.logoFile) return null;
    const logo = before.logo === 'own' ? ('none' as const) : before.logo;
    await tx.update(emailSettings).set({ logoFile: null, logo }).where(tenant.byId(emailSettings, before.id));
    await recordAudit(tx, auth, {
      action: 'remove logo',
      entity: 'email_settings',
      entityId: before.id,
      before: { logoFile: before.logoFile, logo: before.logo },
      after: { logoFile: null, logo },
    });
    return before.logoFile;
  });
  if (old) await deps.files.delete(old);
  return getEmailSettings(deps, tenant);
}

/** "Send me a test": a short sample to the signed-in staff member, with the saved settings. */
export async function sendSettingsTest(deps: AppDeps, auth: AuthContext) {
  const { tenant } = auth;
  await deps.database.db.transaction(async (tx) => {
    const company = await companyOf(tx, tenant);
    const look = await mailLookOf(tx, tenant, deps.config);
    const lines = [
      `Hello ${auth.fullName},`,
      `This is a test of the email settings of ${company.name}. Every email to your families and staff is sent like this one:`,
      `From: ${look.fromName ?? 'the sender name set for this installation'}`,
      `Replies go to: ${look.replyTo ?? 'nowhere (no reply-to address is set)'}`,
      look.footer.trim() ? 'The footer is below.' : 'No footer is set.',
    ];
    await queueRenderedMail(tx, tenant, deps.config, {
      kind: 'test',
      to: auth.email,
      subject: `[Test] Email settings of ${company.name}`,
      text: lines.join('\n\n'),
      html: lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n'),
      data: {},
    });
  });
  await deps.jobs.nudge(queues.mailDeliver);
  return { to: auth.email };
}
