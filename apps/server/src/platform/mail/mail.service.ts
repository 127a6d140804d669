import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { companies } from '../../features/accounts/accounts.tables.ts';
import { Tenant, type TenantTable } from '../tenancy.ts';
import { emailSettings, mailOutbox, systemEmails } from './mail.tables.ts';
import { applyMailLook, type MailKind, type MailOverride, renderMail } from './mail.templates.ts';

/**
 * Writes a mail to the outbox. Call it inside the transaction of the change that causes the mail,
 * then `jobs.nudge(queues.mailDeliver)` after commit. Without SMTP the mail is 'kept' for staff to read.
 */
export async function queueMail(
  tx: Db,
  tenant: Tenant,
  config: Config,
  kind: MailKind,
  to: string,
  data: Record<string, string>,
  wording?: MailOverride,
): Promise<number> {
  const [stored] = await tx
    .select({ subject: systemEmails.subject, body: systemEmails.body })
    .from(systemEmails)
    .where(tenant.where(systemEmails, eq(systemEmails.kind, kind)))
    .limit(1);
  // Wording given by the caller (e.g. party invitation settings) wins over system-emails.
  const rendered = renderMail(kind, data, wording ?? stored);
  return queueRenderedMail(tx, tenant, config, { kind, to, data, ...rendered });
}

/** A mail whose subject, text and HTML are already written (mass mail composes its own). */
export interface RenderedMail {
  /** A MailKind, or another label for the outbox (e.g. 'mass-mail'). */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Kept with the mail. `ics`/`icsFilename` attach a calendar file; `unsubscribeUrl` (marketing
   * mail only, see features/communications/consent.service.ts) adds the one-click
   * List-Unsubscribe headers.
   */
  data: Record<string, string>;
}

/** `tenant.where(ownCompany)` is `companies.id = <the tenant>`. */
const ownCompany: TenantTable = { companyId: companies.id };

/**
 * A company's email settings (settings/emails) as every mail of it carries them: sender name and
 * reply-to, footer and logo (an absolute URL: mail is read outside the app). Unset, the sender is
 * the company's name and the reply-to its email: a family reads who wrote and answers them, never
 * the installation's no-reply address.
 */
export async function mailLookOf(db: Db, tenant: Tenant, config: Config) {
  // One after the other: inside a transaction its connection runs one query at a time.
  const [settings] = await db.select().from(emailSettings).where(tenant.where(emailSettings)).limit(1);
  const [company] = await db
    .select({ name: companies.name, email: companies.email, logoFile: companies.logoFile })
    .from(companies)
    .where(tenant.where(ownCompany))
    .limit(1);
  const logoFile =
    settings?.logo === 'own' ? settings.logoFile : settings?.logo === 'company' ? company?.logoFile : null;
  return {
    fromName: settings?.fromName || company?.name || null,
    replyTo: settings?.replyTo || company?.email || null,
    footer: settings?.footer ?? '',
    logoUrl: logoFile ? `${config.publicUrl}/api/v1/files/${logoFile}` : null,
    logoAlt: company?.name ?? '',
  };
}

/** The From of a mail: the company's sender name with MAIL_FROM's address (never another domain's). */
export function senderOf(config: Config, fromName: string | null) {
  return fromName ? { name: fromName, address: mailFromAddress(config) } : config.MAIL_FROM;
}

/** The address of MAIL_FROM ("Tumble <no-reply@x>" or a bare address). */
export const mailFromAddress = (config: Config) =>
  /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM.trim();

/**
 * Writes an already-rendered mail to the outbox; same transaction rule as `queueMail`. The
 * company's email settings are applied here, so every mail carries them: footer and logo in the
 * body, sender name and reply-to on the row for delivery.
 */
export async function queueRenderedMail(
  tx: Db,
  tenant: Tenant,
  config: Config,
  mail: RenderedMail,
): Promise<number> {
  const look = await mailLookOf(tx, tenant, config);
  const { text, html } = applyMailLook(mail, look);
  const [row] = await tx
    .insert(mailOutbox)
    .values(
      tenant.values({
        kind: mail.kind,
        toAddress: mail.to,
        data: mail.data,
        subject: mail.subject,
        text,
        html,
        fromName: look.fromName,
        replyTo: look.replyTo,
        status: config.SMTP_URL ? ('pending' as const) : ('kept' as const),
      }),
    )
    .returning({ id: mailOutbox.id });
  return row!.id;
}

const MAX_ATTEMPTS = 5;

/** Why mail to an erased family stays unsent; staff read it in the outbox. */
export const withdrawnForErasure = 'Not sent: the family was erased.';

/**
 * Mail still waiting to go to this address is not sent: it is marked failed with `reason`. Erasing
 * a family calls it before the address becomes a placeholder, which no server would take.
 */
export async function withdrawMailTo(tx: Db, tenant: Tenant, email: string, reason: string): Promise<void> {
  await tx
    .update(mailOutbox)
    .set({ status: 'failed', lastError: reason })
    .where(
      tenant.where(
        mailOutbox,
        eq(mailOutbox.status, 'pending'),
        sql`lower(${mailOutbox.toAddress}) = ${email.toLowerCase()}`,
      ),
    );
}

/**
 * The files a mail carries, from its data: `ics` is a calendar file named `icsFilename` (see
 * calendarMailData in ics.ts). Kept in the outbox row so the sent mail and the .eml written without
 * SMTP carry the same file.
 */
export function attachmentsOf(data: Record<string, string>) {
  const calendar = data.ics
    ? [
        {
          // Mail queued before the name came with the data was always a class enrolment's.
          filename: data.icsFilename ?? 'classes.ics',
          content: data.ics,
          contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        },
      ]
    : [];
  // A mass mail's file (features/communications/mass-mail.service.ts): its path on disk, read when
  // sent, so 2,000 copies do not each keep the file in the outbox.
  const file = data.attachmentFile
    ? [
        {
          filename: data.attachmentName ?? 'attachment',
          path: data.attachmentFile,
          contentType: data.attachmentType,
        },
      ]
    : [];
  return [...calendar, ...file];
}

/**
 * Marketing mail's one-click unsubscribe (RFC 8058): mail clients show an Unsubscribe button that
 * POSTs `List-Unsubscribe=One-Click` to the link. Transactional mail has no `unsubscribeUrl`.
 */
export function headersOf(data: Record<string, string>): Record<string, string> {
  return data.unsubscribeUrl
    ? {
        'List-Unsubscribe': `<${data.unsubscribeUrl}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      }
    : {};
}

/** Where mail goes without SMTP, for the start-up log; null when SMTP_URL is set. */
export function mailWithoutSmtpNotice(config: Config): string | null {
  if (config.SMTP_URL) return null;
  return `no SMTP_URL: mail is kept in each company's outbox (/admin/mail) and written as .eml files to ${config.mailDir}`;
}

/**
 * Without SMTP, writes each kept mail once as an .eml file under DATA_DIR/mail. A company's staff
 * read their outbox in the admin area, but some mail has no reader there: the activation mail of a
 * company that signed itself up, whose admin cannot sign in until they open it (issue 21 point 15).
 * Written here, after the mail's transaction committed, never for a change that was rolled back.
 */
async function writeKeptMail(database: Database, config: Config): Promise<number> {
  const compose = nodemailer.createTransport({ streamTransport: true, buffer: true });
  await mkdir(config.mailDir, { recursive: true });
  let written = 0;
  for (;;) {
    const done = await database.db.transaction(async (tx) => {
      const [mail] = await tx
        .select()
        .from(mailOutbox)
        // cross-tenant: one outbox for the installation; every company's mail is written.
        .where(and(eq(mailOutbox.status, 'kept'), isNull(mailOutbox.file)))
        .orderBy(mailOutbox.id)
        .limit(1)
        .for('update', { skipLocked: true });
      if (!mail) return true;
      const { message } = await compose.sendMail({
        from: senderOf(config, mail.fromName),
        replyTo: mail.replyTo ?? undefined,
        to: mail.toAddress,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: attachmentsOf(mail.data),
        headers: headersOf(mail.data),
      });
      const file = `${mail.createdAt.toISOString().replace(/[:.]/g, '-')}-${mail.id}-${mail.kind}.eml`;
      await writeFile(path.join(config.mailDir, file), message as Buffer, { mode: 0o600 });
      await tx.update(mailOutbox).set({ file }).where(new Tenant(mail.companyId).byId(mailOutbox, mail.id));
      if (config.LOG_LEVEL !== 'silent')
        console.log(`[mail] ${mail.kind} to ${mail.toAddress}: ${path.join(config.mailDir, file)}`);
      written++;
      return false;
    });
    if (done) return written;
  }
}

/**
 * nodemailer's codes for a failure of one message (a recipient or the message refused, an
 * attachment that cannot be read). Any other failure (refused connection, timeout, TLS, sign-in)
 * is the server's, and every other mail would fail the same way.
 */
const MESSAGE_ERRORS = new Set(['EENVELOPE', 'EMESSAGE', 'ESTREAM']);

/**
 * Sends pending outbox mail over SMTP_URL (without it, writes kept mail to DATA_DIR/mail). Rows are
 * claimed with SKIP LOCKED so several workers never send the same mail twice. A mail the server
 * refuses is counted and passed over, so one bad address cannot hold back every company's mail
 * until its fifth attempt; when the server itself fails, the run stops and the sweep tries later.
 */
export async function deliverPendingMail(database: Database, config: Config): Promise<number> {
  if (!config.SMTP_URL) return writeKeptMail(database, config);
  const transport = nodemailer.createTransport(config.SMTP_URL);
  // Throttle to what the SMTP server takes (SMTP_MAX_PER_MINUTE per worker process): a mass mail to
  // 2,000 families must not be refused half-way as a flood.
  const gapMs = config.SMTP_MAX_PER_MINUTE > 0 ? 60_000 / config.SMTP_MAX_PER_MINUTE : 0;
  let lastSentAt = 0;
  let sent = 0;
  // Mail is taken in id order; past one the server refused, this run goes on after it (the next run
  // tries it again).
  let after = 0;
  try {
    for (;;) {
      const wait = lastSentAt + gapMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      lastSentAt = Date.now();
      const done = await database.db.transaction(async (tx) => {
        const [mail] = await tx
          .select()
          .from(mailOutbox)
          // cross-tenant: one outbox for the installation; every company's mail is sent.
          .where(
            and(
              eq(mailOutbox.status, 'pending'),
              lt(mailOutbox.attempts, MAX_ATTEMPTS),
              gt(mailOutbox.id, after),
            ),
          )
          .orderBy(mailOutbox.id)
          .limit(1)
          .for('update', { skipLocked: true });
        if (!mail) return true;
        try {
          await transport.sendMail({
            from: senderOf(config, mail.fromName),
            replyTo: mail.replyTo ?? undefined,
            to: mail.toAddress,
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
            attachments: attachmentsOf(mail.data),
            headers: headersOf(mail.data),
          });
          await tx
            .update(mailOutbox)
            .set({ status: 'sent', sentAt: sql`now()`, attempts: mail.attempts + 1, lastError: null })
            .where(new Tenant(mail.companyId).byId(mailOutbox, mail.id));
          sent++;
        } catch (error) {
          const attempts = mail.attempts + 1;
          const lastError = String((error as Error).message ?? error).slice(0, 500);
          await tx
            .update(mailOutbox)
            .set({ attempts, lastError, status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending' })
            .where(new Tenant(mail.companyId).byId(mailOutbox, mail.id));
          if (config.LOG_LEVEL !== 'silent')
            console.warn(
              `[mail] ${mail.kind} #${mail.id} to ${mail.toAddress} not sent (attempt ${attempts} of ${MAX_ATTEMPTS}): ${lastError}`,
            );
          if (!MESSAGE_ERRORS.has((error as { code?: string }).code ?? '')) return true;
          after = mail.id;
        }
        return false;
      });
      if (done) break;
    }
  } finally {
    transport.close();
  }
  return sent;
}
