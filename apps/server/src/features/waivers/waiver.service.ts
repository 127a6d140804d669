import type { FormResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import {
  type AdminWaiverStatusResponse,
  type WaiverCheckResponse,
  type WaiverChildInfo,
  type WaiverKind,
  type WaiverMarkResponse,
  type WaiverPageResponse,
  waiverMessages,
  waiverPaths,
  waiverSubmitRequest,
} from '@tumble/contracts/waiver';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { parseForm } from '../../platform/forms.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { sha256 } from '../../platform/secrets.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { contactsByIds } from '../accounts/profile.service.ts';
import {
  type BookingRow,
  bookingById,
  childrenOfBookings,
  confirmedBookingByReference,
} from '../bookings/family-bookings.service.ts';
import { purchaseByReference } from '../classes/enrolment-purchases.service.ts';
import { eventNames } from '../events/events.service.ts';
import {
  confirmedPartyByReference,
  confirmedPartyGuestByToken,
  guestsOfParties,
  type PartyBookingRow,
  type PartyGuestRow,
  partyBookingById,
} from '../parties/family-parties.service.ts';
import { formOfPurchase } from '../registration/enrolment-form-reads.service.ts';
import { childrenByIds } from '../students/children.service.ts';
import { signedWaivers, waivers, waiverUses } from './waivers.tables.ts';

/**
 * Waivers are signed once per child per template version and reused for later bookings of the
 * same company (issue 7). A "person" is someone on a booking who needs a waiver: a child of an
 * event booking, the birthday child of a party, or a party guest.
 */

/** The public signing page of a booking (event) or of a party's child or guest (party). */
export function waiverLink(config: Config, kind: WaiverKind, id: string, authhash: string): string {
  return `${config.publicUrl}${waiverPaths[kind].page}?id=${encodeURIComponent(id)}&authhash=${encodeURIComponent(authhash)}`;
}

/** The `waiver_uses` key of a person on a booking. */
export const waiverSubject = {
  event: (bookingId: number, childId: number) => `event:${bookingId}:${childId}`,
  party: (partyBookingId: number, childId: number) => `party:${partyBookingId}:${childId}`,
  guest: (guestId: number) => `guest:${guestId}`,
  enrolment: (purchaseId: number, childId: number) => `enrolment:${purchaseId}:${childId}`,
};

/** The waiver kinds staff see on a booking's page (enrolments have no such screen yet). */
type StaffWaiverKind = Exclude<WaiverKind, 'enrolment'>;

/** What each kind of booking's templates apply to (besides 'all'). */
const appliesToOf: Record<WaiverKind, 'events' | 'parties' | 'classes'> = {
  event: 'events',
  party: 'parties',
  enrolment: 'classes',
};

interface Person {
  /** The child's id, or the guest's id for party guests. */
  id: number;
  firstName: string;
  lastName: string;
  dob: string | null;
  consent: boolean;
  /** The key of `waiver_uses`: this person on this booking. */
  subject: string;
  childId: number | null;
  guestId: number | null;
  parentId: number | null;
  parentName: string;
  parentEmail: string | null;
  /** The secret of this person's signing page. */
  linkId: string;
}

interface Target {
  title: string;
  /** The link's id, repeated by the mark call. */
  hash: string;
  people: Person[];
  /** The template this booking asks for (a registration form's waiver); else the kind's current one. */
  templateId?: number | null;
}

type Template = typeof waivers.$inferSelect;
type SignedWaiver = typeof signedWaivers.$inferSelect;

/** A guest's name as entered on the guest list, split for the form ("Ava Smith" → Ava, Smith). */
function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/);
  return { firstName: parts[0] ?? '', lastName: parts.slice(1).join(' ') };
}

async function eventPeople(db: Db, tenant: Tenant, booking: BookingRow): Promise<Person[]> {
  const [contacts, links] = await Promise.all([
    contactsByIds(db, tenant, [booking.parentId]),
    childrenOfBookings(db, tenant, [booking.id]),
  ]);
  const parent = contacts.get(booking.parentId);
  const kids = await childrenByIds(
    db,
    tenant,
    links.map((l) => l.childId),
  );
  const byId = new Map(kids.map((child) => [child.id, child]));
  // In the order the children were booked.
  const booked = links.flatMap((l) => byId.get(l.childId) ?? []);
  return booked.map((child) => ({
    id: child.id,
    firstName: child.firstName,
    lastName: child.lastName,
    dob: child.dob,
    consent: child.consent,
    subject: waiverSubject.event(booking.id, child.id),
    childId: child.id,
    guestId: null,
    parentId: booking.parentId,
    parentName: parent?.fullName ?? '',
    parentEmail: parent?.email ?? null,
    linkId: booking.reference,
  }));
}

async function birthdayChild(db: Db, tenant: Tenant, party: PartyBookingRow): Promise<Person | null> {
  const [child] = await childrenByIds(db, tenant, [party.childId]);
  const parent = child ? (await contactsByIds(db, tenant, [child.parentId])).get(child.parentId) : undefined;
  if (!child || !parent) return null;
  return {
    id: child.id,
    firstName: child.firstName,
    lastName: child.lastName,
    dob: child.dob,
    consent: child.consent,
    subject: waiverSubject.party(party.id, child.id),
    childId: child.id,
    guestId: null,
    parentId: party.parentId,
    parentName: parent.fullName,
    parentEmail: parent.email,
    linkId: party.reference,
  };
}

function guestPerson(guest: PartyGuestRow): Person {
  return {
    id: guest.id,
    ...splitName(guest.childName),
    dob: null,
    consent: false,
    subject: waiverSubject.guest(guest.id),
    childId: null,
    guestId: guest.id,
    parentId: null,
    parentName: guest.parentName ?? '',
    parentEmail: guest.parentEmail,
    linkId: guest.waiverToken,
  };
}

const partyTitle = (child: Person | null) =>
  child ? `${child.firstName}’s birthday party` : 'Birthday party';

/** The booking with its event's name; null when either is missing. */
async function withEventName(db: Db, tenant: Tenant, booking: BookingRow | null) {
  if (!booking) return null;
  const eventName = (await eventNames(db, tenant, [booking.eventId])).get(booking.eventId);
  return eventName === undefined ? null : { booking, eventName };
}

/**
 * A class enrolment purchase by its reference: one person per child it bought places for. Its
 * waiver is signed during registration, so a purchase still being paid for counts as well as a
 * confirmed one; a cancelled or lapsed one does not. The template is the registration form's.
 */
async function enrolmentTarget(db: Db, tenant: Tenant, reference: string): Promise<Target | null> {
  const purchase = await purchaseByReference(db, tenant, reference);
  if (!purchase || !['pending', 'confirmed'].includes(purchase.status)) return null;
  const [form, contacts, kids] = await Promise.all([
    formOfPurchase(db, tenant, purchase.formId),
    contactsByIds(db, tenant, [purchase.parentId]),
    childrenByIds(db, tenant, purchase.childIds),
  ]);
  const parent = contacts.get(purchase.parentId);
  const byId = new Map(kids.map((child) => [child.id, child]));
  // In the order the children's places were bought.
  const people = purchase.childIds.flatMap((childId) => {
    const child = byId.get(childId);
    if (!child) return [];
    return [
      {
        id: child.id,
        firstName: child.firstName,
        lastName: child.lastName,
        dob: child.dob,
        consent: child.consent,
        subject: waiverSubject.enrolment(purchase.id, child.id),
        childId: child.id,
        guestId: null,
        parentId: purchase.parentId,
        parentName: parent?.fullName ?? '',
        parentEmail: parent?.email ?? null,
        linkId: reference,
      },
    ];
  });
  return {
    title: form?.name ?? 'Class enrolment',
    hash: reference,
    people,
    templateId: form?.waiverId ?? null,
  };
}

/**
 * What a link's id names in this company: an event booking (by reference), a party's birthday
 * child (party reference) or one party guest (guest token). Only confirmed bookings need waivers.
 */
async function findTarget(db: Db, tenant: Tenant, kind: WaiverKind, id: string): Promise<Target | null> {
  if (kind === 'enrolment') return enrolmentTarget(db, tenant, id);
  if (kind === 'event') {
    const row = await withEventName(db, tenant, await confirmedBookingByReference(db, tenant, id));
    if (!row) return null;
    return { title: row.eventName, hash: id, people: await eventPeople(db, tenant, row.booking) };
  }
  const party = await confirmedPartyByReference(db, tenant, id);
  if (party) {
    const child = await birthdayChild(db, tenant, party);
    return { title: partyTitle(child), hash: id, people: child ? [child] : [] };
  }
  const guestRow = await confirmedPartyGuestByToken(db, tenant, id);
  if (!guestRow) return null;
  const child = await birthdayChild(db, tenant, guestRow.party);
  return { title: partyTitle(child), hash: id, people: [guestPerson(guestRow.guest)] };
}

/**
 * The company's waiver for this kind of booking: the newest active template that applies to it.
 * (A company keeps one waiver per kind; an older active one is superseded by a newer.)
 */
export async function currentTemplate(db: Db, tenant: Tenant, kind: WaiverKind): Promise<Template | null> {
  const [template] = await db
    .select()
    .from(waivers)
    .where(
      tenant.where(
        waivers,
        eq(waivers.active, true),
        isNull(waivers.archivedAt),
        inArray(waivers.appliesTo, [appliesToOf[kind], 'all']),
      ),
    )
    .orderBy(desc(waivers.id))
    .limit(1);
  return template ?? null;
}

/**
 * The template a booking's people sign: the one its target names (a registration form's waiver)
 * while it is active and applies to that kind, else the kind's current template.
 */
async function templateFor(
  db: Db,
  tenant: Tenant,
  kind: WaiverKind,
  target: Target,
): Promise<Template | null> {
  if (target.templateId != null) {
    const [chosen] = await db
      .select()
      .from(waivers)
      .where(
        tenant.where(
          waivers,
          eq(waivers.id, target.templateId),
          eq(waivers.active, true),
          isNull(waivers.archivedAt),
          inArray(waivers.appliesTo, [appliesToOf[kind], 'all']),
        ),
      );
    if (chosen) return chosen;
  }
  return currentTemplate(db, tenant, kind);
}

/** What a company's waiver template applies to; null when the id is not the company's. */
export async function waiverAppliesTo(db: Db, tenant: Tenant, id: number) {
  const [row] = await db
    .select({ appliesTo: waivers.appliesTo })
    .from(waivers)
    .where(tenant.where(waivers, eq(waivers.id, id)));
  return row?.appliesTo ?? null;
}

/** A signed waiver of this template version for this person (the same child, or the same guest child and email). */
function sameTemplateAndPerson(template: Template, person: Person) {
  const version = and(
    eq(signedWaivers.waiverId, template.id),
    eq(signedWaivers.waiverVersion, template.version),
  );
  if (person.childId !== null) return and(version, eq(signedWaivers.childId, person.childId));
  if (!person.parentEmail) return sql`false`;
  return and(
    version,
    sql`lower(${signedWaivers.signerEmail}) = ${person.parentEmail.toLowerCase()}`,
    sql`lower(${signedWaivers.childFirstName}) = ${person.firstName.toLowerCase()}`,
  );
}

async function previousWaiver(db: Db, tenant: Tenant, template: Template, person: Person) {
  const [found] = await db
    .select()
    .from(signedWaivers)
    .where(tenant.where(signedWaivers, sameTemplateAndPerson(template, person)))
    .orderBy(desc(signedWaivers.signedAt))
    .limit(1);
  return found ?? null;
}

/** The waivers of the current template version that cover these people, by subject. */
async function coverage(db: Db, tenant: Tenant, template: Template | null, subjects: string[]) {
  const covered = new Map<string, SignedWaiver>();
  if (!template || subjects.length === 0) return covered;
  const rows = await db
    .select({ subject: waiverUses.subject, signed: signedWaivers })
    .from(waiverUses)
    .innerJoin(signedWaivers, eq(signedWaivers.id, waiverUses.signedWaiverId))
    .where(
      tenant.where(
        waiverUses,
        inArray(waiverUses.subject, subjects),
        eq(signedWaivers.waiverId, template.id),
        eq(signedWaivers.waiverVersion, template.version),
      ),
    );
  for (const row of rows) covered.set(row.subject, row.signed);
  return covered;
}

/**
 * For account pages: whether this kind of booking needs a waiver at all, and which of these
 * subjects (see `waiverSubject`) are covered by the current template version.
 */
export async function waiverCoverage(db: Db, tenant: Tenant, kind: WaiverKind, subjects: string[]) {
  const template = await currentTemplate(db, tenant, kind);
  const covered = await coverage(db, tenant, template, subjects);
  return { required: template !== null, covered: new Set(covered.keys()) };
}

/** Records that a signed waiver covers this person on this booking (replacing an older version's). */
async function recordUse(db: Db, tenant: Tenant, person: Person, signedWaiverId: number) {
  await db
    .insert(waiverUses)
    .values(tenant.values({ subject: person.subject, signedWaiverId }))
    .onConflictDoUpdate({
      target: [waiverUses.companyId, waiverUses.subject],
      set: { signedWaiverId, usedAt: new Date() },
    });
}

const invalid = { valid: false, message: waiverMessages.invalidLink } as const;

/** GET …/waiver: the form load. */
export async function waiverPage(
  db: Db,
  tenant: Tenant,
  kind: WaiverKind,
  id: string,
): Promise<WaiverPageResponse> {
  const target = await findTarget(db, tenant, kind, id);
  if (!target) return { ...invalid, title: '', hash: '', waiver: null, people: [] };
  const template = await templateFor(db, tenant, kind, target);
  const covered = await coverage(
    db,
    tenant,
    template,
    target.people.map((p) => p.subject),
  );
  return {
    valid: true,
    message: template ? '' : waiverMessages.notNeeded,
    title: target.title,
    hash: target.hash,
    waiver: template
      ? {
          id: template.id,
          title: template.title,
          body: template.body,
          version: template.version,
          ask_fields: template.askFields.filter(
            (f): f is 'medical' | 'allergies' | 'emergency_contact' | 'photo_consent' => f !== 'dob',
          ),
        }
      : null,
    people: target.people.map((person) => {
      const signed = covered.get(person.subject);
      return {
        id: person.id,
        first_name: person.firstName,
        last_name: person.lastName,
        status: signed ? 'signed' : 'needed',
        signed_at: signed ? signed.signedAt.toISOString() : null,
      };
    }),
  };
}

/** The target, its template and one person on it; null when any is missing. */
async function resolve(db: Db, tenant: Tenant, kind: WaiverKind, id: string, personId: number) {
  const target = await findTarget(db, tenant, kind, id);
  const person = target?.people.find((p) => p.id === personId);
  if (!target || !person) return null;
  return { target, person, template: await templateFor(db, tenant, kind, target) };
}

/** POST …/waiver/check: is there a waiver this person signed for the current template version? */
export async function checkWaiver(
  db: Db,
  tenant: Tenant,
  kind: WaiverKind,
  id: string,
  personId: number,
): Promise<WaiverCheckResponse> {
  const found = await resolve(db, tenant, kind, id, personId);
  if (!found) return { ...invalid, found: false, id: 0 };
  if (!found.template) return { valid: false, message: waiverMessages.notNeeded, found: false, id: 0 };
  const previous = await previousWaiver(db, tenant, found.template, found.person);
  return { valid: true, message: '', found: previous !== null, id: previous?.id ?? 0 };
}

/** GET …/waiver/mark: the waiver found by check now covers this booking. */
export async function markWaiver(
  db: Db,
  tenant: Tenant,
  kind: WaiverKind,
  query: { guest_id: number; hash: string; waiver_id: number },
): Promise<WaiverMarkResponse> {
  const found = await resolve(db, tenant, kind, query.hash, query.guest_id);
  if (!found?.template) return invalid;
  const [signed] = await db
    .select({ id: signedWaivers.id })
    .from(signedWaivers)
    .where(
      tenant.where(
        signedWaivers,
        eq(signedWaivers.id, query.waiver_id),
        sameTemplateAndPerson(found.template, found.person),
      ),
    );
  if (!signed) return { valid: false, message: waiverMessages.notThisChild };
  await recordUse(db, tenant, found.person, signed.id);
  return { valid: true, message: messages.waiverFound };
}

/** GET …/waiver/child-info: what the form starts with. */
export async function waiverChildInfo(
  db: Db,
  tenant: Tenant,
  kind: WaiverKind,
  id: string,
  personId: number,
): Promise<WaiverChildInfo> {
  const found = await resolve(db, tenant, kind, id, personId);
  if (!found) throw new NotFoundError(waiverMessages.invalidLink);
  const { person } = found;
  return {
    first_name: person.firstName,
    last_name: person.lastName,
    dob: person.dob ?? '',
    photo_consent: person.consent,
    parent_name: person.parentName,
  };
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The signature's PNG bytes, or null when the data URL does not hold a PNG. */
function signaturePng(dataUrl: string): Buffer | null {
  const png = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  return png.length > PNG_MAGIC.length && png.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC) ? png : null;
}

/** POST …/waiver: signs the current template for one person and covers this booking with it. */
export async function submitWaiver(
  db: Db,
  tenant: Tenant,
  kind: WaiverKind,
  body: unknown,
  from: { ip: string; userAgent: string },
): Promise<FormResponse> {
  const parsed = parseForm(waiverSubmitRequest, body);
  if (!parsed.ok) return parsed.response;
  const input = parsed.data;
  const png = signaturePng(input.signature);
  if (!png) {
    return {
      valid: false,
      error: {
        html_message: waiverMessages.signatureRequired,
        element: [{ name: 'signature', messages: [waiverMessages.signatureRequired] }],
      },
    };
  }
  const found = await resolve(db, tenant, kind, input.id, input.child_id);
  if (!found) return { valid: false, error: { html_message: waiverMessages.invalidLink, element: [] } };
  const { person, template } = found;
  if (!template) return { valid: false, error: { html_message: waiverMessages.notNeeded, element: [] } };

  await db.transaction(async (tx) => {
    // One signature per person and version even when the form is sent twice at once.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`waiver:${tenant.companyId}:${person.subject}`}))`,
    );
    const [already] = await coverage(tx, tenant, template, [person.subject]).then((m) => [...m.values()]);
    if (already) return;
    const answers: Record<string, string | boolean> = {};
    for (const field of template.askFields) {
      if (field === 'medical') answers.medical = input.medical;
      if (field === 'allergies') answers.allergies = input.allergies;
      if (field === 'emergency_contact') answers.emergency_contact = input.emergency_contact;
      if (field === 'photo_consent') answers.photo_consent = input.photo_consent;
    }
    const evidence = {
      waiverId: template.id,
      waiverVersion: template.version,
      waiverTitle: template.title,
      bodyHtml: template.body,
      childId: person.childId,
      partyGuestId: person.guestId,
      parentId: person.parentId,
      childFirstName: input.first_name,
      childLastName: input.last_name,
      childDob: input.dob,
      answers,
      signerName: input.signer_name,
      signerEmail: person.parentEmail,
      signedAt: new Date(),
      ip: from.ip,
      userAgent: from.userAgent.slice(0, 500),
    };
    const contentHash = sha256(JSON.stringify({ ...evidence, signature: png.toString('base64') }));
    const [signed] = await tx
      .insert(signedWaivers)
      .values(tenant.values({ ...evidence, signaturePng: png, contentHash }))
      .returning({ id: signedWaivers.id });
    await recordUse(tx, tenant, person, signed!.id);
  });
  return { valid: true, info: { title: 'Waiver signed', message: waiverMessages.signed } };
}

/** The people of a booking as staff see them: every child, or the birthday child and every guest. */
export async function staffTarget(
  db: Db,
  tenant: Tenant,
  kind: StaffWaiverKind,
  bookingId: number,
): Promise<(Target & { reference: string; parentEmail: string | null }) | null> {
  if (kind === 'event') {
    const row = await withEventName(db, tenant, await bookingById(db, tenant, bookingId));
    if (!row) return null;
    const people = await eventPeople(db, tenant, row.booking);
    return {
      title: row.eventName,
      hash: row.booking.reference,
      // Staff see the short code the bookings list and the parent's mail show.
      reference: row.booking.code,
      people,
      parentEmail: people[0]?.parentEmail ?? null,
    };
  }
  const party = await partyBookingById(db, tenant, bookingId);
  if (!party) return null;
  const child = await birthdayChild(db, tenant, party);
  const guests = await guestsOfParties(db, tenant, [party.id]);
  return {
    title: partyTitle(child),
    hash: party.reference,
    reference: party.code,
    people: [...(child ? [child] : []), ...guests.map(guestPerson)],
    parentEmail: child?.parentEmail ?? null,
  };
}

/** Staff: which people of a booking have a waiver for the current template. */
export async function bookingWaiverStatus(
  deps: AppDeps,
  tenant: Tenant,
  kind: StaffWaiverKind,
  bookingId: number,
): Promise<AdminWaiverStatusResponse> {
  const { db } = deps.database;
  const target = await staffTarget(db, tenant, kind, bookingId);
  if (!target) throw new NotFoundError();
  const [template, company] = await Promise.all([currentTemplate(db, tenant, kind), companyOf(db, tenant)]);
  const covered = await coverage(
    db,
    tenant,
    template,
    target.people.map((p) => p.subject),
  );
  const links = new Map<string, { name: string; url: string }>();
  for (const person of target.people) {
    if (links.has(person.linkId)) continue;
    links.set(person.linkId, {
      name: person.guestId === null ? target.title : `${person.firstName} (guest)`,
      url: waiverLink(deps.config, kind, person.linkId, company.authhash),
    });
  }
  return {
    title: target.title,
    reference: target.reference,
    links: [...links.values()],
    people: target.people.map((person) => {
      const signed = covered.get(person.subject) ?? null;
      return {
        name: `${person.firstName} ${person.lastName}`.trim(),
        role: person.guestId === null ? 'child' : 'guest',
        status: signed ? 'signed' : 'needed',
        signed_waiver_id: signed?.id ?? null,
        signed_at: signed?.signedAt.toISOString() ?? null,
        signer_name: signed?.signerName ?? null,
      };
    }),
  };
}

/**
 * Staff: mails the signing link to everyone on the booking who still needs a waiver: the booking's
 * parent for their children, each guest's parent (with an email) for that guest.
 */
export async function resendWaiverRequests(
  deps: AppDeps,
  tenant: Tenant,
  kind: StaffWaiverKind,
  bookingId: number,
): Promise<{ success: boolean; message: string }> {
  const { db } = deps.database;
  const target = await staffTarget(db, tenant, kind, bookingId);
  if (!target) throw new NotFoundError();
  const template = await currentTemplate(db, tenant, kind);
  if (!template) return { success: false, message: waiverMessages.notNeeded };
  const covered = await coverage(
    db,
    tenant,
    template,
    target.people.map((p) => p.subject),
  );
  // One mail per signing link: all of a booking's children share one.
  const byLink = new Map<string, Person[]>();
  for (const person of target.people) {
    if (covered.has(person.subject) || !person.parentEmail) continue;
    byLink.set(person.linkId, [...(byLink.get(person.linkId) ?? []), person]);
  }
  if (byLink.size === 0) return { success: true, message: 'Nobody on this booking needs to sign a waiver.' };
  const company = await companyOf(db, tenant);
  await db.transaction(async (tx) => {
    for (const [linkId, people] of byLink) {
      const first = people[0]!;
      await queueMail(tx, tenant, deps.config, 'waiver-request', first.parentEmail!, {
        name: first.parentName,
        company: company.name,
        title: target.title,
        children: people.map((p) => p.firstName).join(', '),
        link: waiverLink(deps.config, kind, linkId, company.authhash),
      });
    }
  });
  await deps.jobs.nudge(queues.mailDeliver);
  const count = byLink.size;
  return { success: true, message: `Waiver request sent (${count} ${count === 1 ? 'email' : 'emails'}).` };
}

/** A signed waiver of this company, for the PDF. Parents pass their id: only their children's. */
export async function signedWaiverFor(db: Db, tenant: Tenant, id: number, parentId?: number) {
  const [row] = await db
    .select()
    .from(signedWaivers)
    .where(
      tenant.where(
        signedWaivers,
        eq(signedWaivers.id, id),
        parentId === undefined ? undefined : eq(signedWaivers.parentId, parentId),
      ),
    );
  if (!row) throw new NotFoundError();
  return row;
}

/** The waivers signed for a parent's children, newest first (the parent's account). */
export function parentSignedWaivers(db: Db, tenant: Tenant, parentId: number): Promise<SignedWaiver[]> {
  return db
    .select()
    .from(signedWaivers)
    .where(tenant.where(signedWaivers, eq(signedWaivers.parentId, parentId)))
    .orderBy(desc(signedWaivers.signedAt));
}
