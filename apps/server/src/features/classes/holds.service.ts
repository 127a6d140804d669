import { and, asc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { randomToken } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, displayDate, displayInstant, todayIn, zonedInstant } from '../../platform/time.ts';
import { companyOf, contactOf } from '../accounts/accounts.service.ts';
import { formOfPurchase } from '../registration/enrolment-form-reads.service.ts';
import { publishedForms } from '../registration/published-forms.service.ts';
import { publishedForm } from '../registration/registration.service.ts';
import { childrenByIds } from '../students/children.service.ts';
import { fullPlacesIn, lockClasses, placesLeft } from './capacity.service.ts';
import { offeredClasses } from './class-finder.service.ts';
import { closeOffers, offerFreedPlaces, settleOffers } from './class-waitlist.service.ts';
import { classWaitlist, trialFollowUps } from './class-waitlist.tables.ts';
import { classEnrolments, classSessions, termClasses } from './classes.tables.ts';
import { enrolmentSettingsOf } from './enrolment-purchases.service.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from './enrolments.tables.ts';
import { nextSessionDate } from './sessions.service.ts';

/**
 * Held places (decision 013) a family takes up through one link: a waitlist offer, a trial's
 * "Enrol" link, a rollover's confirmation. A hold is pending `class_enrolments` rows sharing a
 * `holdToken`; paying for them is the enrolment checkout with `hold_token`. This file makes and
 * releases the holds of offers and trial conversions, and shows any hold on the accept page.
 */

export type HeldFor = 'offer' | 'trial_conversion' | 'rollover';
/** The holds that lapse into the waitlist; checkout holds are the checkout's own (checkout.ts). */
const LAPSING: HeldFor[] = ['offer', 'trial_conversion', 'rollover'];

export const HOLD_CLOSED =
  'This link is no longer open: the place has been taken up, declined or its hold has ended.';
export const HOLD_TAKEN = 'You have already taken up this place.';
export const HOLD_PAYING =
  'A payment for this place has already been started: please finish it on the card page, or try again in a few minutes.';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** '16:30:00' → '4:30 pm'. */
function clock(time: string): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return `${h % 12 || 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'am' : 'pm'}`;
}

/** '16:30:00' plus 45 minutes → '17:15'. */
function plusMinutes(time: string, minutes: number): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = (h * 60 + m + minutes) % (24 * 60);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** 'Tuesdays 4:00 pm – 5:00 pm'. */
function whenOf(termClass: { weekday: number; startTime: string; durationMinutes: number }) {
  return `${WEEKDAYS[termClass.weekday - 1]}s ${clock(termClass.startTime)} – ${clock(plusMinutes(termClass.startTime, termClass.durationMinutes))}`;
}

/** The link that shows a hold and pays for it. */
export function acceptLink(deps: AppDeps, authhash: string, token: string, decline = false) {
  const base = `${deps.config.publicUrl}/registration/accept/?token=${encodeURIComponent(token)}&authhash=${encodeURIComponent(authhash)}`;
  return decline ? `${base}&decline=1` : base;
}

/**
 * In the caller's transaction, under the class's lock, after counting a free place for each child:
 * holds a full enrolment from `startsOn` for each child with one token, and mails the parent the
 * link (an offer's pay-to-accept and decline links, or a trial's one-tap "Enrol" link).
 */
export async function holdPlaces(
  deps: AppDeps,
  tx: Db,
  tenant: Tenant,
  hold: {
    termClassId: number;
    childIds: number[];
    startsOn: string;
    heldFor: 'offer' | 'trial_conversion';
    hours: number;
  },
): Promise<{ token: string; enrolmentIds: number[]; expiresAt: Date }> {
  const token = randomToken(24);
  const expiresAt = new Date(Date.now() + hold.hours * 3_600_000);
  const rows = await tx
    .insert(classEnrolments)
    .values(
      hold.childIds.map((childId) =>
        tenant.values({
          termClassId: hold.termClassId,
          childId,
          kind: 'enrolled' as const,
          startsOn: hold.startsOn,
          status: 'pending' as const,
          heldFor: hold.heldFor,
          holdExpiresAt: expiresAt,
          holdToken: token,
        }),
      ),
    )
    .returning({ id: classEnrolments.id });

  const company = await companyOf(tx, tenant);
  const [termClass] = await tx.select().from(termClasses).where(tenant.byId(termClasses, hold.termClassId));
  const kids = await childrenByIds(tx, tenant, hold.childIds);
  const parent = await contactOf(tx, tenant, kids[0]!.parentId);
  const data = {
    name: parent.fullName,
    company: company.name,
    class: termClass!.name,
    when: whenOf(termClass!),
    children: kids.map((k) => k.firstName).join(' and '),
    first_session: displayDate(hold.startsOn),
    expires: displayInstant(expiresAt, company.timeZone),
    link: acceptLink(deps, company.authhash, token),
    decline_link: acceptLink(deps, company.authhash, token, true),
  };
  const kind = hold.heldFor === 'offer' ? 'class-waitlist-offer' : 'class-trial-follow-up';
  await queueMail(tx, tenant, deps.config, kind, parent.email, data);
  return { token, enrolmentIds: rows.map((r) => r.id), expiresAt };
}

export interface HeldPlacesView {
  status: 'open' | 'paying' | 'taken' | 'closed';
  message: string | null;
  held_for: string | null;
  expires_at: string | null;
  /** The hold's end in the company's time zone: '25 Nov 2026, 4:05 pm'. */
  expires_display: string | null;
  places: {
    enrolment_id: number;
    child_id: number;
    term_class_id: number;
    child_name: string;
    class_name: string;
    when: string;
    first_session: string;
  }[];
  form_key: string | null;
}

/** The rows of a hold token that belong to this parent's children; 404 for anyone else's or none. */
async function holdRows(db: Db, tenant: Tenant, token: string, parentId: number | null) {
  if (!token) throw new NotFoundError(HOLD_CLOSED);
  const rows = await db
    .select()
    .from(classEnrolments)
    .where(tenant.where(classEnrolments, eq(classEnrolments.holdToken, token)))
    .orderBy(asc(classEnrolments.id));
  if (rows.length === 0) throw new NotFoundError(HOLD_CLOSED);
  const kids = await childrenByIds(
    db,
    tenant,
    rows.map((r) => r.childId),
  );
  if (parentId !== null && kids.some((k) => k.parentId !== parentId)) throw new NotFoundError(HOLD_CLOSED);
  return { rows, kids };
}

/** GET /api/v1/registration/holds: what a hold link holds for the signed-in parent, and whether it is still open. */
export async function heldPlaces(
  deps: AppDeps,
  tenant: Tenant,
  token: string,
  parentId: number,
): Promise<HeldPlacesView> {
  const { db } = deps.database;
  const { rows, kids } = await holdRows(db, tenant, token, parentId);
  const company = await companyOf(db, tenant);
  const classes = await db
    .select()
    .from(termClasses)
    .where(
      tenant.where(
        termClasses,
        inArray(
          termClasses.id,
          rows.map((r) => r.termClassId),
        ),
      ),
    );
  const now = Date.now();
  const live = (r: (typeof rows)[number]) =>
    r.status === 'pending' && r.holdExpiresAt !== null && r.holdExpiresAt.getTime() > now;
  // A checkout started with the link holds the places while its card payment is open.
  const paying = rows.some((r) => live(r) && r.heldFor === 'checkout');
  const open = !paying && rows.every((r) => live(r) && LAPSING.includes(r.heldFor as HeldFor));
  const taken = rows.some((r) => r.status === 'active');
  const status = open ? 'open' : taken ? 'taken' : paying ? 'paying' : 'closed';
  const expiresAt = rows[0]!.holdExpiresAt;
  return {
    status,
    message: open ? null : taken ? HOLD_TAKEN : paying ? HOLD_PAYING : HOLD_CLOSED,
    held_for: rows[0]!.heldFor,
    expires_at: expiresAt?.toISOString() ?? null,
    expires_display: expiresAt ? displayInstant(expiresAt, company.timeZone) : null,
    places: rows.map((r) => {
      const child = kids.find((k) => k.id === r.childId);
      const termClass = classes.find((c) => c.id === r.termClassId);
      return {
        enrolment_id: r.id,
        child_id: r.childId,
        term_class_id: r.termClassId,
        child_name: child ? `${child.firstName} ${child.lastName}` : '',
        class_name: termClass?.name ?? '',
        when: termClass ? whenOf(termClass) : '',
        first_session: r.startsOn ? displayDate(r.startsOn) : '',
      };
    }),
    form_key: await formOffering(
      db,
      tenant,
      classes,
      await trialFormKey(
        db,
        tenant,
        rows.map((r) => r.id),
      ),
    ),
  };
}

/**
 * The key of a published registration form that offers all these classes (the checkout goes through
 * one): `preferred` (the form a trial was booked through) when it still does, else the first by
 * name; null when none does.
 */
async function formOffering(db: Db, tenant: Tenant, classes: { id: number }[], preferred: string | null) {
  const ids = [...new Set(classes.map((c) => c.id))];
  const keys = (await publishedForms(db, tenant)).map((f) => f.key);
  for (const key of preferred && keys.includes(preferred) ? [preferred, ...keys] : keys) {
    const form = await publishedForm(db, tenant, key);
    if (form && (await offeredClasses(db, tenant, form, ids)).length === ids.length) return key;
  }
  return null;
}

/** The form the trial of a trial conversion hold was booked through; null for other holds. */
async function trialFormKey(db: Db, tenant: Tenant, enrolmentIds: number[]): Promise<string | null> {
  const [row] = await db
    .select({ formId: enrolmentPurchases.registrationFormId })
    .from(trialFollowUps)
    .innerJoin(
      enrolmentPurchaseItems,
      and(
        eq(enrolmentPurchaseItems.enrolmentId, trialFollowUps.trialEnrolmentId),
        eq(enrolmentPurchaseItems.companyId, trialFollowUps.companyId),
      ),
    )
    .innerJoin(
      enrolmentPurchases,
      and(
        eq(enrolmentPurchases.id, enrolmentPurchaseItems.purchaseId),
        eq(enrolmentPurchases.companyId, enrolmentPurchaseItems.companyId),
      ),
    )
    .where(tenant.where(trialFollowUps, inArray(trialFollowUps.holdEnrolmentId, enrolmentIds)))
    .limit(1);
  return (await formOfPurchase(db, tenant, row?.formId ?? null))?.key ?? null;
}

/**
 * In the caller's transaction, under the class locks: cancels the places still held by a lapsing
 * hold (an offer, a trial's link, a rollover place) that meet `conditions`, and closes their offers
 * as `offerStatus`. Returns how many places it cancelled.
 */
async function cancelHeldPlaces(
  tx: Db,
  tenant: Tenant,
  offerStatus: 'declined' | 'expired',
  ...conditions: SQL[]
): Promise<number> {
  const cancelled = await tx
    .update(classEnrolments)
    .set({ status: 'cancelled' })
    .where(
      tenant.where(
        classEnrolments,
        ...conditions,
        eq(classEnrolments.status, 'pending'),
        inArray(classEnrolments.heldFor, LAPSING),
      ),
    )
    .returning({ id: classEnrolments.id });
  await closeOffers(
    tx,
    tenant,
    cancelled.map((r) => r.id),
    offerStatus,
  );
  return cancelled.length;
}

/**
 * A parent declines or releases a held place (an offer, a trial's link, a rollover place): its rows
 * are cancelled, an offer is declined, and the places go to the next family on the waitlist.
 * `parentId`: the signed-in parent, whose children the rows must be; null for staff.
 */
export async function releaseHold(
  deps: AppDeps,
  tenant: Tenant,
  token: string,
  parentId: number | null,
): Promise<void> {
  const { db } = deps.database;
  const { rows } = await holdRows(db, tenant, token, parentId);
  const classIds = [...new Set(rows.map((r) => r.termClassId))];
  const released = await db.transaction(async (tx) => {
    await lockClasses(tx, tenant, classIds);
    return cancelHeldPlaces(tx, tenant, 'declined', eq(classEnrolments.holdToken, token));
  });
  if (released === 0) {
    throw new ConflictError(rows.some((r) => r.status === 'active') ? HOLD_TAKEN : HOLD_CLOSED);
  }
  await offerFreedPlaces(deps, tenant, classIds);
}

/**
 * The job: for every company, lapsed holds of offers, trial links and rollover places are cancelled,
 * their offers expire, and the places are offered to the next family. Paid offers are marked
 * accepted. Safe to run twice at once: rows are changed under the class locks, only while pending.
 */
export async function releaseLapsedHolds(deps: AppDeps): Promise<number> {
  const { db } = deps.database;
  const lapsed = await db
    .selectDistinct({ companyId: classEnrolments.companyId, termClassId: classEnrolments.termClassId })
    .from(classEnrolments)
    // cross-tenant: the job sweeps every company's lapsed holds; each is released in its own tenant.
    .where(
      and(
        eq(classEnrolments.status, 'pending'),
        inArray(classEnrolments.heldFor, LAPSING),
        lte(classEnrolments.holdExpiresAt, sql`now()`),
      ),
    );
  const byCompany = new Map<number, number[]>();
  for (const l of lapsed) byCompany.set(l.companyId, [...(byCompany.get(l.companyId) ?? []), l.termClassId]);
  let count = 0;
  for (const [companyId, classIds] of byCompany) {
    const tenant = new Tenant(companyId);
    count += await db.transaction(async (tx) => {
      await lockClasses(tx, tenant, classIds);
      return cancelHeldPlaces(
        tx,
        tenant,
        'expired',
        inArray(classEnrolments.termClassId, classIds),
        lte(classEnrolments.holdExpiresAt, sql`now()`),
      );
    });
    await offerFreedPlaces(deps, tenant, classIds);
  }
  // Offers paid for, or whose place a checkout cancelled, since the last run.
  const offered = await db
    .selectDistinct({ companyId: classWaitlist.companyId })
    .from(classWaitlist)
    // cross-tenant: the companies with open offers; each is read in its own tenant.
    .where(eq(classWaitlist.status, 'offered'));
  for (const { companyId } of offered) await settleOffers(db, new Tenant(companyId));
  return count;
}

/** Trials are followed up when their session ended at most this many days ago (not years of history). */
const FOLLOW_UP_DAYS = 7;

/**
 * The job: each trial whose session has ended (company time zone) is followed up once. When the
 * class has a free place from its next session, the place is held for `trialConversionHoldHours`
 * and the parent gets a one-tap "Enrol" link; the follow-up row records it (the trial converted
 * when that place became active).
 */
export async function followUpTrials(deps: AppDeps, now: Date = new Date()): Promise<number> {
  const { db } = deps.database;
  const candidates = await db
    .select({
      id: classEnrolments.id,
      companyId: classEnrolments.companyId,
      termClassId: classEnrolments.termClassId,
      childId: classEnrolments.childId,
      date: classSessions.date,
      startTime: classSessions.startTime,
      durationMinutes: classSessions.durationMinutes,
    })
    .from(classEnrolments)
    .innerJoin(
      classSessions,
      and(
        eq(classSessions.id, classEnrolments.sessionId),
        eq(classSessions.companyId, classEnrolments.companyId),
      ),
    )
    .leftJoin(
      trialFollowUps,
      and(
        eq(trialFollowUps.trialEnrolmentId, classEnrolments.id),
        eq(trialFollowUps.companyId, classEnrolments.companyId),
      ),
    )
    // cross-tenant: the job follows up every company's trials; each is handled in its own tenant.
    .where(
      and(
        eq(classEnrolments.kind, 'trial'),
        eq(classEnrolments.status, 'active'),
        eq(classSessions.status, 'scheduled'),
        // A day either side of UTC's date: whether it has ended is decided in the company's zone below.
        gte(classSessions.date, addDays(now.toISOString().slice(0, 10), -FOLLOW_UP_DAYS - 1)),
        lte(classSessions.date, addDays(now.toISOString().slice(0, 10), 1)),
        sql`${trialFollowUps.id} is null`,
      ),
    )
    .orderBy(asc(classEnrolments.id));
  const zones = new Map<number, string>();
  let held = 0;
  for (const trial of candidates) {
    const tenant = new Tenant(trial.companyId);
    if (!zones.has(trial.companyId)) zones.set(trial.companyId, (await companyOf(db, tenant)).timeZone);
    const zone = zones.get(trial.companyId)!;
    const ends =
      zonedInstant(trial.date, trial.startTime.slice(0, 5), zone).getTime() + trial.durationMinutes * 60_000;
    if (ends > now.getTime()) continue;
    if (await followUpTrial(deps, tenant, trial, todayIn(zone, now))) held++;
  }
  if (held > 0) await deps.jobs.nudge(queues.mailDeliver);
  return held;
}

/** One trial's follow-up, once (the unique follow-up row decides between two workers). */
async function followUpTrial(
  deps: AppDeps,
  tenant: Tenant,
  trial: { id: number; termClassId: number; childId: number; date: string },
  today: string,
): Promise<boolean> {
  return deps.database.db.transaction(async (tx) => {
    const [termClass] = await lockClasses(tx, tenant, [trial.termClassId]);
    const [followUp] = await tx
      .insert(trialFollowUps)
      .values(tenant.values({ trialEnrolmentId: trial.id }))
      .onConflictDoNothing()
      .returning({ id: trialFollowUps.id });
    if (!followUp || termClass?.status !== 'active') return false;
    // Already enrolled (or holding a place) in the class: nothing to offer.
    const enrolled = await fullPlacesIn(tx, tenant, trial.termClassId, [trial.childId]);
    if (enrolled.length > 0) return false;
    // The first session after the trial that has not passed.
    const after = [addDays(trial.date, 1), today].sort().at(-1)!;
    const startsOn = await nextSessionDate(tx, tenant, trial.termClassId, after);
    if (!startsOn) return false;
    const free = (await placesLeft(tx, tenant, [trial.termClassId], startsOn)).get(trial.termClassId) ?? 0;
    if (free <= 0) return false;
    const settings = await enrolmentSettingsOf(tx, tenant);
    const hold = await holdPlaces(deps, tx, tenant, {
      termClassId: trial.termClassId,
      childIds: [trial.childId],
      startsOn,
      heldFor: 'trial_conversion',
      hours: settings.trialConversionHoldHours,
    });
    await tx
      .update(trialFollowUps)
      .set({ holdEnrolmentId: hold.enrolmentIds[0] })
      .where(tenant.byId(trialFollowUps, followUp.id));
    return true;
  });
}
