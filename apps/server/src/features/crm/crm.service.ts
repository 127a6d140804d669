import {
  type Contact,
  type ContactResponse,
  type ContactsQuery,
  type ContactsResponse,
  type ConvertResponse,
  type CrmSettingsResponse,
  type contactRequest,
  type convertRequest,
  crmMessages,
  type crmSettingsRequest,
  ENQUIRY_SOURCE,
  type enquiryRequest,
} from '@tumble/contracts/crm';
import type { FormResponse } from '@tumble/contracts/http';
import { and, desc, eq, gte, ilike, inArray, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { countAttempt } from '../../platform/throttle.ts';
import { todayIn } from '../../platform/time.ts';
import { companyContact, companyOf } from '../accounts/accounts.service.ts';
import { inviteImportedParent, usersByEmails } from '../accounts/imported-families.service.ts';
import { usersWithRoles } from '../accounts/people.service.ts';
import { publishedForm } from '../registration/registration.service.ts';
import { createChildren } from '../students/children.service.ts';
import { type ContactChild, type CrmStage, contactNotes, contacts, crmSettings } from './crm.tables.ts';

/**
 * The CRM (issue 16): enquiries from the public registration form and leads staff enter, moved
 * through the company's stages and converted to a family with one action.
 */

export const DEFAULT_SOURCES = ['Walk-in', 'Website', 'Facebook', 'Referral', ENQUIRY_SOURCE];
export const DEFAULT_STAGES: CrmStage[] = [
  { name: 'New', kind: 'open' },
  { name: 'Contacted', kind: 'open' },
  { name: 'Trial booked', kind: 'open' },
  { name: 'Won', kind: 'won' },
  { name: 'Lost', kind: 'lost' },
];

/** The company's sources and stages; the defaults until it saves its own (a read never writes). */
export async function crmSettingsOf(db: Db, tenant: Tenant): Promise<CrmSettingsResponse> {
  const [row] = await db.select().from(crmSettings).where(tenant.where(crmSettings));
  return row
    ? { sources: row.sources, stages: row.stages, saved: true }
    : { sources: DEFAULT_SOURCES, stages: DEFAULT_STAGES, saved: false };
}

export async function saveCrmSettings(
  db: Db,
  auth: AuthContext,
  input: z.infer<typeof crmSettingsRequest>,
): Promise<FormResponse> {
  await db.transaction(async (tx) => {
    const before = await crmSettingsOf(tx, auth.tenant);
    await tx
      .insert(crmSettings)
      .values(auth.tenant.values({ sources: input.sources, stages: input.stages }))
      .onConflictDoUpdate({
        target: crmSettings.companyId,
        set: { sources: input.sources, stages: input.stages, updatedAt: new Date() },
      });
    await recordAudit(tx, auth, {
      action: 'update',
      entity: 'crm_settings',
      entityId: null,
      before: { sources: before.sources, stages: before.stages },
      after: { sources: input.sources, stages: input.stages },
    });
  });
  return { valid: true, info: { title: 'Saved', message: 'The lead sources and stages are saved.' } };
}

type ContactRow = typeof contacts.$inferSelect;

const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

function stageKind(stages: CrmStage[], row: ContactRow): CrmStage['kind'] {
  if (row.convertedAt) return 'won';
  return stages.find((s) => s.name === row.stage)?.kind ?? 'open';
}

async function describe(
  db: Db,
  tenant: Tenant,
  rows: ContactRow[],
  stages: CrmStage[],
  today: string,
): Promise<Contact[]> {
  const families = await usersWithRoles(
    db,
    tenant,
    rows.flatMap((r) => (r.parentId ? [r.parentId] : [])),
  );
  return rows.map((r) => {
    const kind = stageKind(stages, r);
    return {
      id: r.id,
      full_name: r.fullName,
      email: r.email,
      phone: r.phone,
      children: r.children,
      interest: r.interest,
      source: r.source,
      stage: r.stage,
      stage_kind: kind,
      follow_up_on: r.followUpOn,
      follow_up_due: kind === 'open' && r.followUpOn !== null && r.followUpOn <= today,
      parent_id: r.parentId,
      family_name: r.parentId ? (families.get(r.parentId)?.fullName ?? null) : null,
      converted_at: r.convertedAt?.toISOString() ?? null,
      created_at: r.createdAt.toISOString(),
    };
  });
}

async function companyToday(db: Db, tenant: Tenant) {
  return todayIn((await companyOf(db, tenant)).timeZone);
}

/** Names of the open stages: a lead in one of them still needs following up. */
const openStages = (stages: CrmStage[]) => stages.filter((s) => s.kind === 'open').map((s) => s.name);

/** SQL: an open lead (not converted, in an open stage) whose follow-up day has come. */
function dueWhere(stages: CrmStage[], today: string): SQL {
  const open = openStages(stages);
  return and(
    isNull(contacts.convertedAt),
    open.length ? inArray(contacts.stage, open) : sql`false`,
    isNotNull(contacts.followUpOn),
    lte(contacts.followUpOn, today),
  )!;
}

/** /admin/contacts: search (name, email, phone, interest), stage, source, follow-up due. */
export async function listContacts(db: Db, tenant: Tenant, query: ContactsQuery): Promise<ContactsResponse> {
  const [settings, today] = await Promise.all([crmSettingsOf(db, tenant), companyToday(db, tenant)]);
  const q = query.q ? `%${escapeLike(query.q)}%` : null;
  const rows = await db
    .select()
    .from(contacts)
    .where(
      tenant.where(
        contacts,
        q
          ? or(
              ilike(contacts.fullName, q),
              ilike(contacts.email, q),
              ilike(contacts.phone, q),
              ilike(contacts.interest, q),
            )
          : undefined,
        query.stage ? eq(contacts.stage, query.stage) : undefined,
        query.source ? eq(contacts.source, query.source) : undefined,
        query.due === 'true' ? dueWhere(settings.stages, today) : undefined,
      ),
    )
    .orderBy(sql`${contacts.followUpOn} asc nulls last`, desc(contacts.id))
    .limit(500);
  const [due] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(contacts)
    .where(tenant.where(contacts, dueWhere(settings.stages, today)));
  return {
    today,
    due_count: due?.n ?? 0,
    contacts: await describe(db, tenant, rows, settings.stages, today),
    sources: settings.sources,
    stages: settings.stages,
  };
}

async function contactRow(db: Db, tenant: Tenant, id: number, lock = false): Promise<ContactRow> {
  const select = db.select().from(contacts).where(tenant.byId(contacts, id));
  const [row] = lock ? await select.for('update') : await select;
  if (!row) throw new NotFoundError('That contact could not be found.');
  return row;
}

/** One contact with its dated notes, newest first. */
export async function contactView(db: Db, tenant: Tenant, id: number): Promise<ContactResponse> {
  const row = await contactRow(db, tenant, id);
  const [settings, today] = await Promise.all([crmSettingsOf(db, tenant), companyToday(db, tenant)]);
  const notes = await db
    .select()
    .from(contactNotes)
    .where(tenant.where(contactNotes, eq(contactNotes.contactId, row.id)))
    .orderBy(desc(contactNotes.createdAt), desc(contactNotes.id));
  const authors = await usersWithRoles(
    db,
    tenant,
    notes.flatMap((n) => (n.authorId ? [n.authorId] : [])),
  );
  const [described] = await describe(db, tenant, [row], settings.stages, today);
  return {
    contact: described!,
    notes: notes.map((n) => ({
      id: n.id,
      body: n.body,
      author: n.authorId ? (authors.get(n.authorId)?.fullName ?? 'Staff') : ENQUIRY_SOURCE,
      created_at: n.createdAt.toISOString(),
    })),
    sources: settings.sources,
    stages: settings.stages,
  };
}

const fieldError = (name: string, message: string): FormResponse => ({
  valid: false,
  error: { html_message: message, element: [{ name, messages: [message] }] },
});

type ContactInput = z.infer<typeof contactRequest>;

/** A source or stage must be one of the company's (or the contact's own, kept from before a rename). */
function checkChoices(
  settings: CrmSettingsResponse,
  input: ContactInput,
  current: ContactRow | null,
): FormResponse | null {
  if (!settings.sources.includes(input.source) && input.source !== current?.source)
    return fieldError('source', crmMessages.sourceUnknown);
  if (!settings.stages.some((s) => s.name === input.stage) && input.stage !== current?.stage)
    return fieldError('stage', crmMessages.stageUnknown);
  return null;
}

const childrenOf = (input: ContactInput['children']): ContactChild[] =>
  input.filter((c) => c.name !== '' || c.age !== null || c.dob !== null);

/** Staff add a lead (/admin/contacts/new). */
export async function createContact(db: Db, auth: AuthContext, input: ContactInput): Promise<FormResponse> {
  const refused = checkChoices(await crmSettingsOf(db, auth.tenant), input, null);
  if (refused) return refused;
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contacts)
      .values(
        auth.tenant.values({
          fullName: input.full_name,
          email: input.email || null,
          phone: input.phone || null,
          children: childrenOf(input.children),
          interest: input.interest || null,
          source: input.source,
          stage: input.stage,
          followUpOn: input.follow_up_on,
          createdById: auth.userId,
        }),
      )
      .returning();
    if (input.note)
      await tx
        .insert(contactNotes)
        .values(auth.tenant.values({ contactId: row!.id, body: input.note, authorId: auth.userId }));
    await recordAudit(tx, auth, { action: 'create', entity: 'contacts', entityId: row!.id, after: row });
    return row!.id;
  });
  return {
    valid: true,
    redirect: `/admin/contacts/${id}`,
    info: { title: 'Contact added', message: `${input.full_name} added.` },
  };
}

/** Staff edit a contact: details, stage, follow-up date. */
export async function updateContact(
  db: Db,
  auth: AuthContext,
  id: number,
  input: ContactInput,
): Promise<FormResponse> {
  const settings = await crmSettingsOf(db, auth.tenant);
  return db.transaction(async (tx) => {
    const before = await contactRow(tx, auth.tenant, id, true);
    const refused = checkChoices(settings, input, before);
    if (refused) return refused;
    const [after] = await tx
      .update(contacts)
      .set({
        fullName: input.full_name,
        email: input.email || null,
        phone: input.phone || null,
        children: childrenOf(input.children),
        interest: input.interest || null,
        source: input.source,
        stage: input.stage,
        followUpOn: input.follow_up_on,
        updatedAt: new Date(),
      })
      .where(auth.tenant.byId(contacts, before.id))
      .returning();
    if (input.note)
      await tx
        .insert(contactNotes)
        .values(auth.tenant.values({ contactId: before.id, body: input.note, authorId: auth.userId }));
    await recordAudit(tx, auth, { action: 'update', entity: 'contacts', entityId: before.id, before, after });
    return { valid: true, info: { title: 'Saved', message: `${input.full_name} saved.` } };
  });
}

/** A dated note on the contact's log. */
export async function addContactNote(db: Db, auth: AuthContext, id: number, body: string): Promise<void> {
  await db.transaction(async (tx) => {
    const contact = await contactRow(tx, auth.tenant, id);
    const [note] = await tx
      .insert(contactNotes)
      .values(auth.tenant.values({ contactId: contact.id, body, authorId: auth.userId }))
      .returning();
    await recordAudit(tx, auth, { action: 'note', entity: 'contacts', entityId: contact.id, after: note });
  });
}

const wonStage = (stages: CrmStage[]) => stages.find((s) => s.kind === 'won')?.name ?? 'Won';

/** Marks the contact as that family (stage Won, converted now) with a note, audited. */
async function markConverted(
  tx: Db,
  auth: AuthContext,
  before: ContactRow,
  parentId: number,
  note: string,
  action: 'convert' | 'link',
) {
  const { stages } = await crmSettingsOf(tx, auth.tenant);
  const [after] = await tx
    .update(contacts)
    .set({ parentId, convertedAt: new Date(), stage: wonStage(stages), updatedAt: new Date() })
    .where(auth.tenant.byId(contacts, before.id))
    .returning();
  await tx
    .insert(contactNotes)
    .values(auth.tenant.values({ contactId: before.id, body: note, authorId: auth.userId }));
  await recordAudit(tx, auth, { action, entity: 'contacts', entityId: before.id, before, after });
}

/** Thrown inside the transaction to roll it back and answer with a refusal. */
class Refused extends Error {
  constructor(readonly response: ConvertResponse) {
    super(response.message);
  }
}

/**
 * Converts a lead to a family in one transaction: a pending parent account invited to choose a
 * password (the import's way, accounts/imported-families.service.ts), the children, and the contact
 * linked (stage Won). Refused when the lead is already a family, has no email, or its email is
 * already one of the company's users (a family: offered to link instead).
 */
export async function convertContact(
  deps: AppDeps,
  auth: AuthContext,
  id: number,
  input: z.infer<typeof convertRequest>,
): Promise<ConvertResponse> {
  const { db } = deps.database;
  const { tenant } = auth;
  const company = await companyOf(db, tenant);
  try {
    const parentId = await db.transaction(async (tx) => {
      // The row lock makes two convert clicks at once queue: the second sees the first's family.
      const contact = await contactRow(tx, tenant, id, true);
      if (contact.parentId) throw new Refused({ valid: false, message: crmMessages.alreadyConverted });
      if (!contact.email) throw new Refused({ valid: false, message: crmMessages.noEmail });
      const existing = (await usersByEmails(tx, tenant, [contact.email])).get(contact.email);
      if (existing) {
        const name = (await usersWithRoles(tx, tenant, [existing.id])).get(existing.id)?.fullName ?? '';
        throw new Refused(
          existing.role === 'student'
            ? {
                valid: false,
                message: crmMessages.emailIsFamily(name),
                existing_family: { parent_id: existing.id, name },
              }
            : { valid: false, message: 'That email belongs to a staff member of the company.' },
        );
      }
      const parentId = await inviteImportedParent(tx, deps, auth, company, {
        email: contact.email,
        fullName: contact.fullName,
        phone: contact.phone,
        childNames: input.children.map((c) => c.first_name),
      });
      await createChildren(
        tx,
        tenant,
        parentId,
        input.children.map((c) => ({
          firstName: c.first_name,
          lastName: c.last_name,
          dob: c.dob,
          consent: false,
        })),
      );
      const kids = input.children.length;
      await markConverted(
        tx,
        auth,
        contact,
        parentId,
        `Converted to a family${kids ? ` with ${kids} ${kids === 1 ? 'child' : 'children'}` : ''}; invitation mailed to ${contact.email}.`,
        'convert',
      );
      return parentId;
    });
    await deps.jobs.nudge(queues.mailDeliver);
    return {
      valid: true,
      message: 'Converted to a family. The parent has been mailed an invitation.',
      parent_id: parentId,
    };
  } catch (error) {
    if (error instanceof Refused) return error.response;
    throw error;
  }
}

/** Links a lead to a family the company already has (the answer to "that email is already a family"). */
export async function linkContact(
  db: Db,
  auth: AuthContext,
  id: number,
  parentId: number,
): Promise<ConvertResponse> {
  const family = (await usersWithRoles(db, auth.tenant, [parentId])).get(parentId);
  if (family?.role !== 'student') throw new NotFoundError(crmMessages.notAFamily);
  try {
    await db.transaction(async (tx) => {
      const contact = await contactRow(tx, auth.tenant, id, true);
      if (contact.parentId) throw new Refused({ valid: false, message: crmMessages.alreadyConverted });
      await markConverted(tx, auth, contact, parentId, `Linked to the family of ${family.fullName}.`, 'link');
    });
  } catch (error) {
    if (error instanceof Refused) return error.response;
    throw error;
  }
  return { valid: true, message: `Linked to the family of ${family.fullName}.`, parent_id: parentId };
}

/** Keys of the enquiry throttle: per email and per address, apart from sign-ins. */
const enquiryKeys = (email: string, ip: string) => ({ account: `enquiry:${email}`, ip: `enquiry-ip:${ip}` });

/**
 * "Enquire" on the public registration form: a contact with source "Enquiry form", the message as its
 * first note, and a mail to the company. Every enquiry counts against the throttle (it sends mail),
 * as a password reset does.
 */
export async function submitEnquiry(
  deps: AppDeps,
  tenant: Tenant,
  formKey: string,
  input: z.infer<typeof enquiryRequest>,
  ip: string,
): Promise<FormResponse> {
  const { db } = deps.database;
  await countAttempt(db, enquiryKeys(input.email, ip));
  const [settings, form, company, staff] = await Promise.all([
    crmSettingsOf(db, tenant),
    formKey ? publishedForm(db, tenant, formKey) : null,
    companyOf(db, tenant),
    companyContact(db, tenant),
  ]);
  const firstStage = settings.stages.find((s) => s.kind === 'open')?.name ?? 'New';
  const children = input.children.filter((c) => c.name !== '' || c.age !== null);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contacts)
      .values(
        tenant.values({
          fullName: input.full_name,
          email: input.email,
          phone: input.phone || null,
          children: children.map((c) => ({ name: c.name, age: c.age, dob: null })),
          interest: form?.name ?? null,
          source: ENQUIRY_SOURCE,
          stage: firstStage,
          followUpOn: todayIn(company.timeZone),
        }),
      )
      .returning();
    if (input.message)
      await tx.insert(contactNotes).values(tenant.values({ contactId: row!.id, body: input.message }));
    if (staff.email)
      await queueMail(tx, tenant, deps.config, 'crm-enquiry', staff.email, {
        company: company.name,
        name: input.full_name,
        email: input.email,
        phone: input.phone || '—',
        children:
          children
            .map((c) => [c.name, c.age === null ? '' : `age ${c.age}`].filter(Boolean).join(', '))
            .join('; ') || '—',
        interest: form?.name ?? '—',
        message: input.message || '—',
        link: `${deps.config.publicUrl}/admin/contacts/${row!.id}`,
      });
  });
  await deps.jobs.nudge(queues.mailDeliver);
  return { valid: true, info: { title: 'Enquiry sent', message: crmMessages.enquirySent } };
}

/** Moves a merged duplicate family's converted leads to the family kept (features/students/merge). */
export async function moveConvertedContacts(tx: Db, tenant: Tenant, from: number, to: number) {
  const moved = await tx
    .update(contacts)
    .set({ parentId: to })
    .where(tenant.where(contacts, eq(contacts.parentId, from)))
    .returning({ id: contacts.id });
  return moved.length;
}

const localDate = (column: typeof contacts.createdAt | typeof contacts.convertedAt, timeZone: string) =>
  sql`(${column} at time zone ${timeZone})::date`;

/**
 * For reports (trial conversions): per lead source, the leads created in the period (company dates,
 * inclusive) and how many of them have become a family since. Most leads first, then by name.
 */
export async function leadsBySource(
  db: Db,
  tenant: Tenant,
  period: { from: string; to: string; timeZone: string },
): Promise<{ source: string; leads: number; converted: number }[]> {
  const created = localDate(contacts.createdAt, period.timeZone);
  const rows = await db
    .select({
      source: contacts.source,
      leads: sql<number>`count(*)::int`,
      converted: sql<number>`(count(*) filter (where ${contacts.parentId} is not null))::int`,
    })
    .from(contacts)
    .where(tenant.where(contacts, gte(created, period.from), lte(created, period.to)))
    .groupBy(contacts.source);
  return rows.sort((a, b) => b.leads - a.leads || a.source.localeCompare(b.source));
}

/**
 * For reports (enrolment comparison): per lead source, how many leads became a family (converted or
 * linked) within each period (company dates, inclusive); one count per period, in order.
 */
export async function conversionsBySource(
  db: Db,
  tenant: Tenant,
  periods: ({ from: string; to: string } | null)[],
  timeZone: string,
): Promise<{ source: string; counts: (number | null)[] }[]> {
  const bySource = new Map<string, (number | null)[]>();
  const empty = () => periods.map((p) => (p ? 0 : null));
  for (const [i, period] of periods.entries()) {
    if (!period) continue;
    const converted = localDate(contacts.convertedAt, timeZone);
    const rows = await db
      .select({ source: contacts.source, n: sql<number>`count(*)::int` })
      .from(contacts)
      .where(
        tenant.where(
          contacts,
          isNotNull(contacts.convertedAt),
          gte(converted, period.from),
          lte(converted, period.to),
        ),
      )
      .groupBy(contacts.source);
    for (const r of rows) {
      const counts = bySource.get(r.source) ?? empty();
      counts[i] = r.n;
      bySource.set(r.source, counts);
    }
  }
  return [...bySource]
    .map(([source, counts]) => ({ source, counts }))
    .sort((a, b) => a.source.localeCompare(b.source));
}
