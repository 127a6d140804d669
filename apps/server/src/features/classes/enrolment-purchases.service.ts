import { and, asc, desc, eq, inArray, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { childrenByIds } from '../students/children.service.ts';
import { clockTime, endTime, venueNamesOf } from './class-finder.service.ts';
import { classEnrolments, termClasses } from './classes.tables.ts';
import { enrolmentPurchaseItems, enrolmentPurchases, enrolmentSettings } from './enrolments.tables.ts';
import { scheduledSessionsOf } from './sessions.service.ts';

/**
 * Reads of class enrolment purchases (the pipeline kind `enrolment`, decision 013) for other
 * features: the enrolment waiver page, the parent's account.
 */

export interface PurchaseSummary {
  id: number;
  parentId: number;
  status: string;
  childIds: number[];
  formId: number | null;
  termClassIds: number[];
}

/** A purchase by its link secret (`booking_hash`), with the children and classes it bought; null when none. */
export async function purchaseByReference(
  db: Db,
  tenant: Tenant,
  reference: string,
): Promise<PurchaseSummary | null> {
  const [purchase] = await db
    .select({
      id: enrolmentPurchases.id,
      parentId: enrolmentPurchases.parentId,
      status: enrolmentPurchases.status,
      formId: enrolmentPurchases.registrationFormId,
    })
    .from(enrolmentPurchases)
    .where(tenant.where(enrolmentPurchases, eq(enrolmentPurchases.reference, reference)));
  if (!purchase) return null;
  const places = await placesOf(db, tenant, [purchase.id]);
  return {
    ...purchase,
    childIds: [...new Set(places.map((p) => p.childId))],
    termClassIds: [...new Set(places.map((p) => p.termClassId))],
  };
}

export interface PurchasePlace {
  purchaseId: number;
  enrolmentId: number;
  childId: number;
  termClassId: number;
  kind: 'enrolled' | 'trial' | 'makeup' | 'casual';
  sessionId: number | null;
  startsOn: string | null;
  status: 'pending' | 'active' | 'withdrawn' | 'cancelled';
  amount: number;
}

/** The places of purchases, in purchase then place order. */
export async function placesOf(db: Db, tenant: Tenant, purchaseIds: number[]): Promise<PurchasePlace[]> {
  if (purchaseIds.length === 0) return [];
  return db
    .select({
      purchaseId: enrolmentPurchaseItems.purchaseId,
      enrolmentId: classEnrolments.id,
      childId: classEnrolments.childId,
      termClassId: classEnrolments.termClassId,
      kind: classEnrolments.kind,
      sessionId: classEnrolments.sessionId,
      startsOn: classEnrolments.startsOn,
      status: classEnrolments.status,
      amount: enrolmentPurchaseItems.amount,
    })
    .from(enrolmentPurchaseItems)
    .innerJoin(
      classEnrolments,
      and(
        eq(classEnrolments.id, enrolmentPurchaseItems.enrolmentId),
        eq(classEnrolments.companyId, enrolmentPurchaseItems.companyId),
      ),
    )
    .where(tenant.where(enrolmentPurchaseItems, inArray(enrolmentPurchaseItems.purchaseId, purchaseIds)))
    .orderBy(asc(enrolmentPurchaseItems.purchaseId), asc(enrolmentPurchaseItems.id));
}

/** A parent's enrolment purchases, newest first (the parent's "Enrolments" list). */
export async function purchasesOfParent(db: Db, tenant: Tenant, parentId: number) {
  const purchases = await db
    .select({
      id: enrolmentPurchases.id,
      code: enrolmentPurchases.code,
      reference: enrolmentPurchases.reference,
      status: enrolmentPurchases.status,
      total: enrolmentPurchases.total,
      createdAt: enrolmentPurchases.createdAt,
    })
    .from(enrolmentPurchases)
    .where(tenant.where(enrolmentPurchases, eq(enrolmentPurchases.parentId, parentId)))
    .orderBy(desc(enrolmentPurchases.createdAt), desc(enrolmentPurchases.id))
    .limit(200);
  const places = await placesOf(
    db,
    tenant,
    purchases.map((p) => p.id),
  );
  return purchases.map((p) => ({ ...p, places: places.filter((pl) => pl.purchaseId === p.id) }));
}

/** The company's enrolment rules (decision 013): its row, or the defaults when it has none. */
export async function enrolmentSettingsOf(db: Db, tenant: Tenant) {
  const [row] = await db.select().from(enrolmentSettings).where(tenant.where(enrolmentSettings));
  return {
    siblingDiscountPercent: row?.siblingDiscountPercent ?? 0,
    multiClassDiscountPercent: row?.multiClassDiscountPercent ?? 0,
    withdrawalPolicy: row?.withdrawalPolicy ?? ('credit' as const),
    offerHoldHours: row?.offerHoldHours ?? 24,
    trialConversionHoldHours: row?.trialConversionHoldHours ?? 48,
    absenceCutoffHours: row?.absenceCutoffHours ?? 2,
    publicWaitlist: row?.publicWaitlist ?? true,
  };
}

/**
 * Of these parents, the ones with an unpaid balance on a class purchase: a refund to settle
 * (`refund_due`) or a checkout left pending past its hold (the re-enrolment's "unpaid balance").
 */
export async function parentsWithUnpaidPurchases(db: Db, tenant: Tenant, parentIds: number[]) {
  const ids = [...new Set(parentIds)];
  if (ids.length === 0) return new Set<number>();
  const rows = await db
    .selectDistinct({ parentId: enrolmentPurchases.parentId })
    .from(enrolmentPurchases)
    .where(
      tenant.where(
        enrolmentPurchases,
        inArray(enrolmentPurchases.parentId, ids),
        or(
          eq(enrolmentPurchases.status, 'refund_due'),
          and(eq(enrolmentPurchases.status, 'pending'), lt(enrolmentPurchases.holdExpiresAt, new Date())),
        ),
      ),
    );
  return new Set(rows.map((r) => r.parentId));
}

export interface PlaceDetail {
  enrolmentId: number;
  childId: number;
  childName: string;
  termClassId: number;
  /** "Kinder Gym Tuesday 4:00pm". */
  className: string;
  kind: PurchasePlace['kind'];
  venue: string | null;
  sessions: { id: number; date: string; startTime: string; endTime: string }[];
}

/**
 * A purchase with what each place comes to: a full enrolment's scheduled sessions from its start,
 * a trial's one session (the confirmation page, its mail and calendar file).
 */
export async function purchaseDetails(db: Db, tenant: Tenant, reference: string) {
  const [purchase] = await db
    .select()
    .from(enrolmentPurchases)
    .where(tenant.where(enrolmentPurchases, eq(enrolmentPurchases.reference, reference)));
  if (!purchase) return null;
  const places = await placesOf(db, tenant, [purchase.id]);
  const classIds = [...new Set(places.map((p) => p.termClassId))];
  const [classes, sessions, kids] = await Promise.all([
    classIds.length === 0
      ? []
      : db
          .select({
            id: termClasses.id,
            name: termClasses.name,
            startTime: termClasses.startTime,
            venueId: termClasses.venueId,
          })
          .from(termClasses)
          .where(tenant.where(termClasses, inArray(termClasses.id, classIds))),
    scheduledSessionsOf(db, tenant, classIds),
    childrenByIds(
      db,
      tenant,
      places.map((p) => p.childId),
    ),
  ]);
  const venues = await venueNamesOf(
    db,
    tenant,
    classes.map((c) => c.venueId),
  );
  const details: PlaceDetail[] = places.map((p) => {
    const cls = classes.find((c) => c.id === p.termClassId)!;
    const child = kids.find((k) => k.id === p.childId);
    return {
      enrolmentId: p.enrolmentId,
      childId: p.childId,
      childName: child ? `${child.firstName} ${child.lastName}` : '',
      termClassId: p.termClassId,
      className: `${cls.name} ${clockTime(cls.startTime)}`,
      kind: p.kind,
      venue: cls.venueId === null ? null : (venues.get(cls.venueId) ?? null),
      sessions: sessions
        .filter((s) =>
          p.kind === 'enrolled'
            ? s.termClassId === p.termClassId && (p.startsOn === null || s.date >= p.startsOn)
            : s.id === p.sessionId,
        )
        .map((s) => ({
          id: s.id,
          date: s.date,
          startTime: s.startTime.slice(0, 5),
          endTime: endTime(s.startTime, s.durationMinutes),
        })),
    };
  });
  return { purchase, places: details };
}

/** "Kinder Gym Tuesday 4:00pm" of each class, by id. */
export async function classNamesById(db: Db, tenant: Tenant, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: termClasses.id, name: termClasses.name, startTime: termClasses.startTime })
    .from(termClasses)
    .where(tenant.where(termClasses, inArray(termClasses.id, unique)));
  return new Map(rows.map((r) => [r.id, `${r.name} ${clockTime(r.startTime)}`]));
}

/**
 * What each of a parent's enrolment purchases bought, by purchase id, for the parent's payments and
 * receipts: "Kinder Gym Tuesday 4:00pm for Leo; Ninja Saturday 9:00am (trial) for Mia (booking EN-…)".
 */
export async function enrolmentPurchasesOfParent(
  db: Db,
  tenant: Tenant,
  parentId: number,
): Promise<Map<number, string>> {
  const purchases = await db
    .select({ id: enrolmentPurchases.id, code: enrolmentPurchases.code })
    .from(enrolmentPurchases)
    .where(tenant.where(enrolmentPurchases, eq(enrolmentPurchases.parentId, parentId)));
  const places = await placesOf(
    db,
    tenant,
    purchases.map((p) => p.id),
  );
  const [classNames, kids] = await Promise.all([
    classNamesById(
      db,
      tenant,
      places.map((p) => p.termClassId),
    ),
    childrenByIds(
      db,
      tenant,
      places.map((p) => p.childId),
    ),
  ]);
  const firstNames = new Map(kids.map((k) => [k.id, k.firstName]));
  return new Map(
    purchases.map((purchase) => {
      // One phrase per class (and trial or not), naming the children it is for.
      const phrases = new Map<string, string[]>();
      for (const place of places.filter((p) => p.purchaseId === purchase.id)) {
        const what = `${classNames.get(place.termClassId) ?? 'A class'}${place.kind === 'enrolled' ? '' : ` (${place.kind})`}`;
        phrases.set(what, [...(phrases.get(what) ?? []), firstNames.get(place.childId) ?? '']);
      }
      const bought = [...phrases].map(([what, names]) => `${what} for ${names.join(', ')}`).join('; ');
      return [purchase.id, `${bought || 'Classes'} (booking ${purchase.code})`];
    }),
  );
}
