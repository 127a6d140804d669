import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { billedEnrolmentIds } from '../billing/billed-lines.service.ts';
import { childrenByIds } from '../students/children.service.ts';
import { enrolmentAdjustments } from './adjustments.tables.ts';
import { classEnrolments, classTypes, termClasses } from './classes.tables.ts';
import { chargeableDates, enrolmentFee, type PricedClass, priceEnrolment } from './enrolment-pricing.ts';
import { enrolmentSettingsOf } from './enrolment-purchases.service.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from './enrolments.tables.ts';
import { scheduledSessionsOf } from './sessions.service.ts';
import { closuresOf, termOf } from './terms.service.ts';

/**
 * What the classes of a term still owe, family by family: the one way billing (the term billing
 * run) reads it. Pure reads; `settleAdjustments` is the only write, inside the issuing transaction.
 *
 * A full enrolment (`enrolled`, `active`) is billed as a priced line when nothing paid for it yet:
 * no confirmed enrolment purchase holds it and no live invoice line bills it. Its fee is the
 * pricing module's (`enrolmentFee`, chargeable dates), from its start to its withdrawal if any, with
 * the sibling and multi-class discounts of the company's enrolment settings (`priceEnrolment`);
 * the family's places already paid or invoiced count first for those discounts.
 *
 * Staff changes leave `enrolment_adjustments` (class-students.service.ts). An open `charge` is a
 * line, an open `credit` a negative line, each billed once by its id. An adjustment of a place that
 * this bill prices from scratch is already in that price (a staff enrolment's fee, the sessions a
 * withdrawal left out, a transfer's new class), so it is settled without a line of its own. A place
 * that continues a paid or invoiced place of the same child in the term (a transfer or re-enrolment
 * after a withdrawal) is billed by its adjustments only: its price was paid through the first place.
 */

/** A line as the invoice will carry it (cents, GST included); the ledger works out its GST. */
export interface BillableLine {
  description: string;
  detail: string | null;
  quantity: number;
  unitAmount: number;
  gstFree: boolean;
  enrolmentId: number | null;
  adjustmentId: number | null;
}

export interface FamilyBill {
  parentId: number;
  /** The children the bill is for, by name. */
  children: string[];
  lines: BillableLine[];
  /** Credit adjustments that become family credit instead of lines (the bill would be negative). */
  credits: { adjustmentId: number; amount: number; reason: string }[];
  /** Adjustments that issuing this bill settles (billed as lines, credited, or in a place's price). */
  settles: number[];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** '2027-01-26' → '26 Jan', as a line's detail says it. */
const dayMonth = (date: string) => `${Number(date.slice(8, 10))} ${MONTHS[Number(date.slice(5, 7)) - 1]}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

interface TermClass extends PricedClass {
  gstFree: boolean;
  /** The term's billing-only closures with their reasons, for the line's words. */
  billingOnly: { startDate: string; endDate: string; reason: string }[];
}

async function classesOfTerm(db: Db, tenant: Tenant, termId: number): Promise<Map<number, TermClass>> {
  const rows = await db
    .select({
      id: termClasses.id,
      name: termClasses.name,
      priceOverride: termClasses.priceOverride,
      price: classTypes.price,
      pricingModel: classTypes.pricingModel,
      trialPrice: classTypes.trialPrice,
      gstFree: classTypes.gstFree,
      gst: classTypes.gst,
    })
    .from(termClasses)
    .innerJoin(
      classTypes,
      and(eq(classTypes.id, termClasses.classTypeId), eq(classTypes.companyId, termClasses.companyId)),
    )
    .where(tenant.where(termClasses, eq(termClasses.termId, termId)))
    .orderBy(asc(termClasses.id));
  const closures = (await closuresOf(db, tenant, termId)).filter((c) => c.kind === 'billing_only');
  const sessions = await scheduledSessionsOf(
    db,
    tenant,
    rows.map((r) => r.id),
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        termClassId: r.id,
        termId,
        name: r.name,
        pricingModel: r.pricingModel,
        price: r.priceOverride ?? r.price,
        trialPrice: r.trialPrice,
        sessionDates: sessions.filter((s) => s.termClassId === r.id).map((s) => s.date),
        billingOnly: closures,
        gstFree: r.gstFree || r.gst === 'gst_free',
      },
    ]),
  );
}

/** The places of the term's classes paid for by a confirmed enrolment purchase. */
async function paidPlaceIds(db: Db, tenant: Tenant, enrolmentIds: number[]): Promise<Set<number>> {
  if (enrolmentIds.length === 0) return new Set();
  const rows = await db
    .select({ id: enrolmentPurchaseItems.enrolmentId })
    .from(enrolmentPurchaseItems)
    .innerJoin(
      enrolmentPurchases,
      and(
        eq(enrolmentPurchases.id, enrolmentPurchaseItems.purchaseId),
        eq(enrolmentPurchases.companyId, enrolmentPurchaseItems.companyId),
      ),
    )
    .where(
      tenant.where(
        enrolmentPurchaseItems,
        inArray(enrolmentPurchaseItems.enrolmentId, enrolmentIds),
        eq(enrolmentPurchases.status, 'confirmed'),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** The fee of a place from `from` until `until` (exclusive; null: the term's end), with its words. */
function placeLine(
  cls: TermClass,
  place: { id: number; startsOn: string | null; withdrawnFrom: string | null },
  childName: string,
  currency: string,
): BillableLine & { fee: number } {
  const money = (cents: number) => formatMoney(cents, currency);
  const from = place.startsOn ?? '';
  const until = place.withdrawnFrom;
  const all = enrolmentFee(cls, from);
  const after = until ? enrolmentFee(cls, until) : { fee: 0, sessions: 0 };
  const fee = all.fee - after.fee;
  const sessions = all.sessions - after.sessions;
  const inRange = (d: string) => d >= from && (until === null || d < until);
  const parts: string[] = [];
  if (cls.pricingModel === 'per_session') parts.push(`${plural(sessions, 'session')} × ${money(cls.price)}`);
  else {
    const inTerm = chargeableDates(cls).length;
    parts.push(
      sessions === inTerm
        ? `Term fee ${money(cls.price)} (${plural(sessions, 'session')})`
        : `${sessions} of ${plural(inTerm, 'session')} of the term fee ${money(cls.price)}`,
    );
  }
  const notCharged = cls.billingOnly
    .map((closure) => ({
      closure,
      dates: cls.sessionDates.filter((d) => inRange(d) && d >= closure.startDate && d <= closure.endDate),
    }))
    .filter((c) => c.dates.length > 0)
    .map((c) => `${c.dates.map(dayMonth).join(', ')} (${c.closure.reason})`);
  if (notCharged.length > 0) parts.push(`not charged: ${notCharged.join(', ')}`);
  const first = cls.sessionDates[0];
  if (first !== undefined && from > first) parts.push(`from ${dayMonth(from)} (joined after the term began)`);
  if (until !== null && cls.sessionDates.some((d) => d >= until))
    parts.push(`until ${dayMonth(until)} (withdrawn)`);
  const perSession = cls.pricingModel === 'per_session';
  return {
    description: `${cls.name} · ${childName}`,
    detail: parts.join(' · '),
    quantity: perSession ? sessions : 1,
    unitAmount: perSession ? cls.price : fee,
    gstFree: cls.gstFree,
    enrolmentId: place.id,
    adjustmentId: null,
    fee,
  };
}

/**
 * Every family's bill for the term's classes (or one family's, with `parentId`), as described
 * above. Families with nothing new are left out. 404 for another company's term.
 */
export async function billableEnrolments(
  db: Db,
  tenant: Tenant,
  termId: number,
  parentId?: number,
): Promise<FamilyBill[]> {
  const term = await termOf(db, tenant, termId);
  if (!term) throw new NotFoundError('That term could not be found.');
  const classes = await classesOfTerm(db, tenant, termId);
  const classIds = [...classes.keys()];
  if (classIds.length === 0) return [];
  const { currency } = await companyOf(db, tenant);
  const settings = await enrolmentSettingsOf(db, tenant);
  const places = await db
    .select({
      id: classEnrolments.id,
      childId: classEnrolments.childId,
      termClassId: classEnrolments.termClassId,
      startsOn: classEnrolments.startsOn,
      withdrawnFrom: classEnrolments.withdrawnFrom,
    })
    .from(classEnrolments)
    .where(
      tenant.where(
        classEnrolments,
        inArray(classEnrolments.termClassId, classIds),
        eq(classEnrolments.kind, 'enrolled'),
        eq(classEnrolments.status, 'active'),
      ),
    )
    .orderBy(asc(classEnrolments.childId), asc(classEnrolments.startsOn), asc(classEnrolments.id));
  const adjustments = await db
    .select()
    .from(enrolmentAdjustments)
    .where(
      tenant.where(
        enrolmentAdjustments,
        inArray(enrolmentAdjustments.termClassId, classIds),
        inArray(enrolmentAdjustments.kind, ['charge', 'credit']),
        eq(enrolmentAdjustments.status, 'open'),
        parentId === undefined ? undefined : eq(enrolmentAdjustments.parentId, parentId),
      ),
    )
    .orderBy(asc(enrolmentAdjustments.id));
  const kids = new Map(
    (
      await childrenByIds(db, tenant, [...places.map((p) => p.childId), ...adjustments.map((a) => a.childId)])
    ).map((c) => [c.id, c]),
  );
  const ofFamily = places.filter((p) => parentId === undefined || kids.get(p.childId)?.parentId === parentId);
  const placeIds = ofFamily.map((p) => p.id);
  const [paid, invoiced] = await Promise.all([
    paidPlaceIds(db, tenant, placeIds),
    billedEnrolmentIds(db, tenant, placeIds),
  ]);
  const covered = (id: number) => paid.has(id) || invoiced.has(id);
  // A place continues a covered place of the same child that ended on or before it starts.
  const continues = (p: (typeof places)[number]) =>
    ofFamily.some(
      (q) =>
        q.childId === p.childId &&
        covered(q.id) &&
        q.withdrawnFrom !== null &&
        p.startsOn !== null &&
        q.withdrawnFrom <= p.startsOn,
    );
  const toPrice = ofFamily.filter((p) => !covered(p.id) && !continues(p));
  const pricedIds = new Set(toPrice.map((p) => p.id));
  const nameOf = (childId: number) => {
    const child = kids.get(childId);
    return child ? `${child.firstName} ${child.lastName}` : '';
  };

  const families = new Set([
    ...toPrice.map((p) => kids.get(p.childId)?.parentId),
    ...adjustments.map((a) => a.parentId),
  ]);
  const bills: FamilyBill[] = [];
  for (const family of families) {
    if (family === undefined) continue;
    const mine = toPrice.filter((p) => kids.get(p.childId)?.parentId === family);
    // Places already paid or invoiced count first for the sibling and multi-class discounts.
    const existing = ofFamily
      .filter((p) => kids.get(p.childId)?.parentId === family && !pricedIds.has(p.id))
      .map((p) => ({ childKey: `id:${p.childId}`, termId, termClassId: p.termClassId }));
    const lines: BillableLine[] = [];
    const priced = mine
      .map((p) => ({ p, line: placeLine(classes.get(p.termClassId)!, p, nameOf(p.childId), currency) }))
      .filter(({ line }) => line.fee > 0);
    // The discounts come from the pricing module: each place is priced as a one-session class of
    // its fee, and a place's discount is what pricing the places up to it adds (each place's
    // discount depends only on those before it), so each discount line can carry its place's GST.
    const discountsUpTo = (n: number) => {
      if (n === 0) return { sibling: 0, multi: 0 };
      const result = priceEnrolment({
        places: priced.slice(0, n).map(({ p }, i) => ({
          childKey: `id:${p.childId}`,
          childName: nameOf(p.childId),
          termClassId: -(i + 1),
          kind: 'enrolled' as const,
          from: '',
        })),
        classes: priced.slice(0, n).map(({ line }, i) => ({
          termClassId: -(i + 1),
          termId,
          name: line.description,
          pricingModel: 'per_session' as const,
          price: line.fee,
          trialPrice: null,
          sessionDates: [term.startDate],
          billingOnly: [],
        })),
        existing,
        siblingDiscountPercent: settings.siblingDiscountPercent,
        multiClassDiscountPercent: settings.multiClassDiscountPercent,
        coupon: null,
        voucher: null,
        voucherUsedBy: [],
        surcharge: null,
        currency,
      });
      const value = (key: string) => -(result.lines.find((l) => l.key === key)?.value ?? 0);
      return { sibling: value('sibling_discount'), multi: value('multi_class_discount') };
    };
    let before = discountsUpTo(0);
    priced.forEach(({ p, line }, i) => {
      const { fee: _fee, ...invoiceLine } = line;
      lines.push(invoiceLine);
      const upTo = discountsUpTo(i + 1);
      const childName = nameOf(p.childId);
      const discount = (amount: number, description: string, detail: string) => {
        if (amount > 0)
          lines.push({
            description,
            detail,
            quantity: 1,
            unitAmount: -amount,
            gstFree: line.gstFree,
            enrolmentId: null,
            adjustmentId: null,
          });
      };
      discount(
        upTo.sibling - before.sibling,
        `Sibling discount ${settings.siblingDiscountPercent}%`,
        `Second and later child · ${childName}`,
      );
      discount(
        upTo.multi - before.multi,
        `Multi-class discount ${settings.multiClassDiscountPercent}%`,
        `Second and later class · ${childName}`,
      );
      before = upTo;
    });

    const settles: number[] = [];
    const adjustmentLines: (BillableLine & { kind: 'charge' | 'credit'; amount: number; reason: string })[] =
      [];
    for (const a of adjustments.filter((x) => x.parentId === family)) {
      settles.push(a.id);
      // Already in the price of a place this bill prices from scratch.
      if (pricedIds.has(a.enrolmentId)) continue;
      const cls = classes.get(a.termClassId)!;
      const credit = a.kind === 'credit';
      adjustmentLines.push({
        description: `${credit ? 'Credit: ' : ''}${cls.name} · ${a.childName}`,
        detail: a.reason,
        quantity: 1,
        unitAmount: credit ? -a.amount : a.amount,
        gstFree: cls.gstFree,
        enrolmentId: null,
        adjustmentId: a.id,
        kind: a.kind as 'charge' | 'credit',
        amount: a.amount,
        reason: a.reason,
      });
    }
    const sum = (ls: BillableLine[]) => ls.reduce((total, l) => total + l.quantity * l.unitAmount, 0);
    // An invoice never comes to less than nothing: credits larger than the charges become family
    // credit (used on the family's next invoices) instead of negative lines.
    const creditsAsLines = sum(lines) + sum(adjustmentLines) >= 0;
    const credits: FamilyBill['credits'] = [];
    for (const { kind, amount, reason, ...line } of adjustmentLines) {
      if (kind === 'credit' && !creditsAsLines)
        credits.push({ adjustmentId: line.adjustmentId!, amount, reason });
      else lines.push(line);
    }
    if (lines.length === 0 && credits.length === 0 && settles.length === 0) continue;
    const childNamesOfBill = [
      ...new Set([
        ...mine.map((p) => nameOf(p.childId)),
        ...adjustments.filter((a) => a.parentId === family).map((a) => a.childName),
      ]),
    ].sort();
    bills.push({ parentId: family, children: childNamesOfBill, lines, credits, settles });
  }
  return bills.sort((a, b) => a.parentId - b.parentId);
}

/** Marks adjustments done: the issuing transaction billed, credited or priced them. */
export async function settleAdjustments(tx: Db, tenant: Tenant, adjustmentIds: number[]): Promise<void> {
  if (adjustmentIds.length === 0) return;
  await tx
    .update(enrolmentAdjustments)
    .set({ status: 'done', doneAt: new Date() })
    .where(
      tenant.where(
        enrolmentAdjustments,
        inArray(enrolmentAdjustments.id, adjustmentIds),
        eq(enrolmentAdjustments.status, 'open'),
      ),
    );
}
