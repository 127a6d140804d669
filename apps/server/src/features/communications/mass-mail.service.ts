import path from 'node:path';
import type {
  AudienceFilter,
  MassMailDetailResponse,
  MassMailRecipient,
  MassMailSummary,
  RecipientStatus,
} from '@tumble/contracts/communications';
import type { FormResponse } from '@tumble/contracts/http';
import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { AppError, NotFoundError } from '../../platform/errors.ts';
import { sanitizeRichText } from '../../platform/html.ts';
import { queues } from '../../platform/jobs.ts';
import { queueRenderedMail } from '../../platform/mail/mail.service.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { displayInstant, zonedInstant } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { familyContacts } from '../accounts/families.service.ts';
import { childClassNames } from '../classes/audience-reads.service.ts';
import { childFirstNames, childrenOfFamilies } from '../students/audience-reads.service.ts';
import { audienceIds } from './audience.service.ts';
import { marketingStatusOf, unsubscribeUrl } from './consent.service.ts';
import { fillHtml, fillText, firstNameOf, mailText, unsubscribeFooter } from './mass-mail.render.ts';
import { massMailRecipients, massMails } from './mass-mail.tables.ts';

/** The outbox kind of every mass mail's copies. */
export const MASS_MAIL_KIND = 'mass-mail';

export const massMailMessages = {
  past: 'Choose a time in the future.',
  notCancellable: 'This mail has already been sent.',
} as const;

export interface NewMassMail {
  subject: string;
  body: string;
  marketing: boolean;
  filter: AudienceFilter;
  send_at: string | null;
  attachment?: { key: string; name: string; type: string } | null;
}

/**
 * Stores a mass mail to send now or at `send_at` (the company's local time). The mass-mail job
 * picks the families when it starts and writes their mails; "send now" is due at once.
 */
export async function createMassMail(
  deps: AppDeps,
  auth: AuthContext,
  input: NewMassMail,
  now = new Date(),
): Promise<FormResponse & { id?: number }> {
  const db = deps.database.db;
  const { tenant } = auth;
  const company = await companyOf(db, tenant);
  let sendAt = now;
  if (input.send_at) {
    const [date, time] = input.send_at.split('T') as [string, string];
    sendAt = zonedInstant(date, time, company.timeZone);
    if (sendAt.getTime() <= now.getTime())
      return {
        valid: false,
        error: {
          html_message: 'Please correct the errors below.',
          element: [{ name: 'send_at', messages: [massMailMessages.past] }],
        },
      };
  }
  const [row] = await db
    .insert(massMails)
    .values(
      tenant.values({
        subject: input.subject.trim(),
        body: sanitizeRichText(input.body),
        marketing: input.marketing,
        filter: input.filter,
        status: 'scheduled' as const,
        sendAt,
        attachmentKey: input.attachment?.key ?? null,
        attachmentName: input.attachment?.name ?? null,
        attachmentType: input.attachment?.type ?? null,
        createdById: auth.userId,
      }),
    )
    .returning({ id: massMails.id });
  return { valid: true, id: row!.id, redirect: `/admin/communications/${row!.id}` };
}

/** Stops a scheduled mail, or the rest of one being sent (families already written still get it). */
export async function cancelMassMail(db: Db, tenant: Tenant, id: number): Promise<void> {
  const [mail] = await db
    .select({ status: massMails.status })
    .from(massMails)
    .where(tenant.byId(massMails, id));
  if (!mail) throw new NotFoundError();
  const [changed] = await db
    .update(massMails)
    .set({ status: 'cancelled', finishedAt: sql`now()` })
    .where(tenant.byId(massMails, id, inArray(massMails.status, ['draft', 'scheduled', 'sending'])))
    .returning({ id: massMails.id });
  if (!changed) throw new AppError(409, massMailMessages.notCancellable);
}

type Counts = { total: number; queued: number; sent: number; failed: number };

/** Each mail's recipients by delivery state (the outbox row's). */
async function countsOf(db: Db, tenant: Tenant, ids: number[]): Promise<Map<number, Counts>> {
  const counts = new Map<number, Counts>();
  if (ids.length === 0) return counts;
  const rows = await db
    .select({
      massMailId: massMailRecipients.massMailId,
      total: sql<number>`count(*) filter (where not ${massMailRecipients.skipped})::int`,
      sent: sql<number>`count(*) filter (where ${mailOutbox.status} = 'sent')::int`,
      failed: sql<number>`count(*) filter (where ${mailOutbox.status} = 'failed')::int`,
      queued: sql<number>`count(*) filter (where ${mailOutbox.status} in ('pending', 'kept'))::int`,
    })
    .from(massMailRecipients)
    .leftJoin(mailOutbox, eq(mailOutbox.id, massMailRecipients.outboxId))
    .where(tenant.where(massMailRecipients, inArray(massMailRecipients.massMailId, ids)))
    .groupBy(massMailRecipients.massMailId);
  for (const row of rows) counts.set(row.massMailId, row);
  return counts;
}

function summaryOf(
  mail: typeof massMails.$inferSelect,
  counts: Counts | undefined,
  timeZone: string,
): MassMailSummary {
  return {
    id: mail.id,
    subject: mail.subject,
    status: mail.status,
    marketing: mail.marketing,
    send_at: mail.sendAt?.toISOString() ?? null,
    send_at_local: mail.sendAt ? displayInstant(mail.sendAt, timeZone) : null,
    total: counts?.total ?? 0,
    sent: counts?.sent ?? 0,
    failed: counts?.failed ?? 0,
    created_at: mail.createdAt.toISOString(),
  };
}

/** The company's mass mails, newest first. */
export async function listMassMails(db: Db, tenant: Tenant): Promise<MassMailSummary[]> {
  const [company, mails] = await Promise.all([
    companyOf(db, tenant),
    db.select().from(massMails).where(tenant.where(massMails)).orderBy(desc(massMails.createdAt)).limit(500),
  ]);
  const counts = await countsOf(
    db,
    tenant,
    mails.map((m) => m.id),
  );
  return mails.map((mail) => summaryOf(mail, counts.get(mail.id), company.timeZone));
}

/** One mass mail with each family's delivery state, read from its outbox row. */
export async function massMailDetail(db: Db, tenant: Tenant, id: number): Promise<MassMailDetailResponse> {
  const [mail] = await db.select().from(massMails).where(tenant.byId(massMails, id));
  if (!mail) throw new NotFoundError();
  const company = await companyOf(db, tenant);
  const [counts, rows] = await Promise.all([
    countsOf(db, tenant, [id]),
    db
      .select({
        parentId: massMailRecipients.parentId,
        skipped: massMailRecipients.skipped,
        outboxId: massMailRecipients.outboxId,
        outboxStatus: mailOutbox.status,
        lastError: mailOutbox.lastError,
        toAddress: mailOutbox.toAddress,
      })
      .from(massMailRecipients)
      .leftJoin(mailOutbox, eq(mailOutbox.id, massMailRecipients.outboxId))
      .where(tenant.where(massMailRecipients, eq(massMailRecipients.massMailId, id)))
      .orderBy(asc(massMailRecipients.id)),
  ]);
  const contacts = await familyContacts(
    db,
    tenant,
    rows.map((r) => r.parentId),
  );
  const recipients: MassMailRecipient[] = rows.map((row) => {
    const contact = contacts.get(row.parentId);
    let status: RecipientStatus = 'waiting';
    if (row.skipped) status = 'skipped';
    else if (row.outboxStatus === 'sent') status = 'sent';
    else if (row.outboxStatus === 'failed') status = 'failed';
    else if (row.outboxId) status = 'queued';
    return {
      parent_id: row.parentId,
      name: contact?.fullName ?? '',
      email: row.toAddress ?? contact?.email ?? '',
      status,
      // A mail still retrying keeps its last error beside "queued".
      reason: status === 'sent' ? null : (row.lastError ?? null),
    };
  });
  const c = counts.get(id) ?? { total: 0, queued: 0, sent: 0, failed: 0 };
  return {
    ...summaryOf(mail, c, company.timeZone),
    body: mail.body,
    attachment_name: mail.attachmentName,
    queued: c.queued,
    recipients,
  };
}

export interface RunOptions {
  /** Families written to the outbox per transaction. */
  batchSize?: number;
  /** Stop after this many batches (a test's "restart" in the middle). */
  maxBatches?: number;
  /** Called inside each batch's transaction before it commits; a throw rolls the batch back. */
  beforeCommit?: (batch: number) => void;
}

/**
 * The mass-mail job: starts the mails that are due (picks their families) and writes each family's
 * mail to the outbox in batches. A family's outbox row and the link to it commit together, and a
 * batch claims its families with SKIP LOCKED, so a restart (or a second worker) never writes a
 * second mail to anyone. The outbox delivery (throttled) sends them.
 */
export async function runMassMails(
  deps: AppDeps,
  now = new Date(),
  options: RunOptions = {},
): Promise<number> {
  const db = deps.database.db;
  const batchSize = options.batchSize ?? 100;
  while (await startDueMail(deps, now)) {
    // one mail started per transaction; go on while more are due
  }
  let written = 0;
  for (let batch = 1; options.maxBatches === undefined || batch <= options.maxBatches; batch++) {
    const count = await db.transaction(async (tx) => {
      const [next] = await tx
        .select({ id: massMailRecipients.id, massMailId: massMailRecipients.massMailId })
        .from(massMailRecipients)
        .innerJoin(massMails, eq(massMails.id, massMailRecipients.massMailId))
        // cross-tenant: the job serves every company; each batch then acts for its mail's company.
        .where(
          and(
            eq(massMails.status, 'sending'),
            isNull(massMailRecipients.outboxId),
            eq(massMailRecipients.skipped, false),
          ),
        )
        .orderBy(asc(massMailRecipients.id))
        .limit(1);
      if (!next) return 0;
      const n = await writeBatch(deps, tx, next.massMailId, batchSize);
      options.beforeCommit?.(batch);
      return n;
    });
    if (count === 0) break;
    written += count;
    await deps.jobs.nudge(queues.mailDeliver);
  }
  await finishWrittenMails(db);
  return written;
}

/** Starts one due mail: its families now become its recipients (one row each). */
async function startDueMail(deps: AppDeps, now: Date): Promise<boolean> {
  return deps.database.db.transaction(async (tx) => {
    const [mail] = await tx
      .select()
      .from(massMails)
      // cross-tenant: finds the due mails of every company; the families are read for its own.
      .where(and(eq(massMails.status, 'scheduled'), lte(massMails.sendAt, now)))
      .orderBy(asc(massMails.sendAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!mail) return false;
    const tenant = new Tenant(mail.companyId);
    const company = await companyOf(tx, tenant);
    const ids = await audienceIds(tx, tenant, company.timeZone, mail.filter, mail.marketing);
    for (let i = 0; i < ids.length; i += 1000) {
      await tx
        .insert(massMailRecipients)
        .values(ids.slice(i, i + 1000).map((parentId) => tenant.values({ massMailId: mail.id, parentId })))
        .onConflictDoNothing();
    }
    await tx
      .update(massMails)
      .set({ status: 'sending', startedAt: now })
      .where(tenant.byId(massMails, mail.id));
    return true;
  });
}

/**
 * Each family's classes and terms for {class} and {term}: their children's current places, within
 * the mail's classes when its filter names some.
 */
async function familyClassNames(
  tx: Db,
  tenant: Tenant,
  parentIds: number[],
  filter: AudienceFilter,
): Promise<Map<number, { classes: string[]; terms: string[] }>> {
  const parentOf = await childrenOfFamilies(tx, tenant, parentIds);
  const places = await childClassNames(tx, tenant, [...parentOf.keys()], {
    termIds: filter.term_ids,
    classTypeIds: filter.class_type_ids,
    classIds: filter.class_ids,
    weekdays: filter.weekdays,
  });
  const names = new Map<number, { classes: string[]; terms: string[] }>();
  for (const place of places) {
    const parentId = parentOf.get(place.childId)!;
    const family = names.get(parentId) ?? { classes: [], terms: [] };
    if (!family.classes.includes(place.className)) family.classes.push(place.className);
    if (!family.terms.includes(place.termName)) family.terms.push(place.termName);
    names.set(parentId, family);
  }
  return names;
}

/** Writes the next families of one mail to the outbox, each with its own placeholders filled. */
async function writeBatch(deps: AppDeps, tx: Db, massMailId: number, batchSize: number): Promise<number> {
  const [mail] = await tx
    .select()
    .from(massMails)
    // cross-tenant: the mail's id came from the claim above; its company is read from the row.
    .where(eq(massMails.id, massMailId));
  const tenant = new Tenant(mail!.companyId);
  const rows = await tx
    .select({ id: massMailRecipients.id, parentId: massMailRecipients.parentId })
    .from(massMailRecipients)
    .where(
      tenant.where(
        massMailRecipients,
        eq(massMailRecipients.massMailId, massMailId),
        isNull(massMailRecipients.outboxId),
        eq(massMailRecipients.skipped, false),
      ),
    )
    .orderBy(asc(massMailRecipients.id))
    .limit(batchSize)
    .for('update', { skipLocked: true });
  if (rows.length === 0) return 0;
  const parentIds = rows.map((r) => r.parentId);
  const company = await companyOf(tx, tenant);
  const filter = mail!.filter;
  const [contacts, childNames, classNames, consent] = [
    await familyContacts(tx, tenant, parentIds),
    await childFirstNames(tx, tenant, parentIds),
    await familyClassNames(tx, tenant, parentIds, filter),
    mail!.marketing ? await marketingStatusOf(tx, tenant, parentIds) : new Map(),
  ];
  for (const row of rows) {
    const contact = contacts.get(row.parentId);
    // Unsubscribed since the mail started (marketing only), or no longer a family: left out.
    if (!contact || consent.get(row.parentId) === 'withdrawn') {
      await tx
        .update(massMailRecipients)
        .set({ skipped: true })
        .where(tenant.byId(massMailRecipients, row.id));
      continue;
    }
    const classes = classNames.get(row.parentId);
    const values = {
      parent_first_name: firstNameOf(contact.fullName),
      parent_name: contact.fullName,
      child_first_name: childNames.get(row.parentId) ?? '',
      class: (classes?.classes ?? []).join(', '),
      term: (classes?.terms ?? []).join(', '),
      company: company.name,
    };
    const data: Record<string, string> = {};
    let html = fillHtml(mail!.body, values);
    if (mail!.marketing) {
      data.unsubscribeUrl = await unsubscribeUrl(tx, tenant, deps.config, row.parentId);
      html += unsubscribeFooter(company.name, data.unsubscribeUrl);
    }
    if (mail!.attachmentKey) {
      // The path on this installation's disk (platform/files.ts LocalDiskStorage): the delivery
      // reads the file when it sends, so 2,000 copies do not each keep the file in the outbox.
      data.attachmentFile = path.join(deps.config.filesDir, ...mail!.attachmentKey.split('/'));
      data.attachmentName = mail!.attachmentName ?? 'attachment';
      data.attachmentType = mail!.attachmentType ?? 'application/octet-stream';
    }
    const outboxId = await queueRenderedMail(tx, tenant, deps.config, {
      kind: MASS_MAIL_KIND,
      to: contact.email,
      subject: fillText(mail!.subject, values),
      text: mailText(html),
      html,
      data,
    });
    await tx.update(massMailRecipients).set({ outboxId }).where(tenant.byId(massMailRecipients, row.id));
  }
  return rows.length;
}

/** Mails being sent with every family written become `sent` (their delivery is the outbox's). */
async function finishWrittenMails(db: Db): Promise<void> {
  await db.execute(sql`
    update mass_mails set status = 'sent', finished_at = now()
    -- cross-tenant: closes finished mails of every company, by their own rows only.
    where status = 'sending' and not exists (
      select 1 from mass_mail_recipients r
      where r.mass_mail_id = mass_mails.id and r.outbox_id is null and not r.skipped
    )`);
}
