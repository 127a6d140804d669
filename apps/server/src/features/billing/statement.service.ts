import { invoiceBalance, type PaymentMethod, paymentMethodLabels } from '@tumble/contracts/billing';
import type {
  FamilyStatement,
  StatementEntry,
  StatementEntryKind,
  StatementInvoice,
} from '@tumble/contracts/statement';
import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, notInArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import type { PurchaseKind } from '../../platform/payments/settlement.ts';
import { renderPdf } from '../../platform/pdf.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate, todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { parentOf } from '../accounts/parents.service.ts';
import { parentBookings } from '../bookings/family-bookings.service.ts';
import { enrolmentPurchasesOfParent } from '../classes/enrolment-purchases.service.ts';
import { lessonPurchasesOfParent } from '../coaches/private-lessons.service.ts';
import { eventNames } from '../events/events.service.ts';
import { parentPartyBookings } from '../parties/family-parties.service.ts';
import { uniformPurchasesOfParent } from '../uniforms/uniform-purchases.service.ts';
import { statusOf } from './ledger.service.ts';
import {
  creditNotes,
  familyAccounts,
  familyCreditEntries,
  invoices,
  paymentAllocations,
  refunds,
} from './ledger.tables.ts';

/**
 * A family's account, read-only (issue 15, decision 017): what they owe, their credit and saved
 * card, their invoices, their payments with refunds, and one dated statement of it all. Staff read
 * any family of their company; a parent reads their own (the routes pass `auth.userId`).
 */

type Payment = typeof payments.$inferSelect;
type Refund = typeof refunds.$inferSelect;

const providerLabels: Record<string, string> = {
  stripe: 'Card (Stripe)',
  square: 'Card (Square)',
  test: 'Test card',
};

/** 'Test card', 'Cash', 'Bank transfer', … */
export function methodLabel(payment: Pick<Payment, 'method' | 'provider'>): string {
  if (payment.method === 'card' && payment.provider) return providerLabels[payment.provider] ?? 'Card';
  return paymentMethodLabels[payment.method as PaymentMethod];
}

/**
 * What each of the family's purchases was, by kind and id, with the short reference people read
 * out (BK-…, BP-…, EN-…, PL-…), each kind read through its own feature's service.
 */
async function purchaseDescriptions(db: Db, tenant: Tenant, parentId: number) {
  const [booked, parties, enrolments, lessons, uniforms] = await Promise.all([
    parentBookings(db, tenant, parentId),
    parentPartyBookings(db, tenant, parentId),
    enrolmentPurchasesOfParent(db, tenant, parentId),
    lessonPurchasesOfParent(db, tenant, parentId),
    uniformPurchasesOfParent(db, tenant, parentId),
  ]);
  const names = await eventNames(
    db,
    tenant,
    booked.map((b) => b.eventId),
  );
  const bought: Record<PurchaseKind, Map<number, string>> = {
    event: new Map(booked.map((b) => [b.id, `${names.get(b.eventId) ?? 'Event'} (booking ${b.code})`])),
    party: new Map(
      parties.map(({ party }) => [
        party.id,
        `Birthday party, ${party.date ? displayDate(party.date) : ''} (booking ${party.code})`,
      ]),
    ),
    enrolment: enrolments,
    private_lesson: lessons,
    invoice: new Map(),
    uniform: uniforms,
  };
  return bought;
}

export interface FamilyPayment {
  payment: Payment;
  /** What it was for: the purchase, or the invoices it paid. */
  description: string;
  refunds: Refund[];
}

/**
 * The family's payments that money moved for (paid, refund due, refunded), newest first, with
 * what each was for and its refunds: every payment naming the family (`parent_id`: card and staff
 * recorded alike), and older card payments found through the family's purchases.
 */
export async function familyPayments(
  db: Db,
  tenant: Tenant,
  parentId: number,
  paymentId?: number,
): Promise<FamilyPayment[]> {
  const bought = await purchaseDescriptions(db, tenant, parentId);
  const purchases = (Object.entries(bought) as [PurchaseKind, Map<number, string>][])
    .filter(([, ofKind]) => ofKind.size > 0)
    .map(([kind, ofKind]) =>
      and(eq(payments.purchaseKind, kind), inArray(payments.purchaseId, [...ofKind.keys()])),
    );
  const rows = await db
    .select()
    .from(payments)
    .where(
      tenant.where(
        payments,
        // Payments made before payments named their family are still found by what they paid for
        // (and with no purchases, by nothing else: an empty `or` would match every such payment).
        purchases.length === 0
          ? eq(payments.parentId, parentId)
          : or(eq(payments.parentId, parentId), and(isNull(payments.parentId), or(...purchases))),
        inArray(payments.status, ['paid', 'refund_due', 'refunded']),
        isNotNull(payments.paidAt),
        paymentId === undefined ? undefined : eq(payments.id, paymentId),
      ),
    )
    .orderBy(desc(payments.paidAt), desc(payments.id));
  if (rows.length === 0) return [];
  const ids = rows.map((p) => p.id);
  const [paidInvoices, refundRows] = await Promise.all([
    db
      .select({ paymentId: paymentAllocations.paymentId, code: invoices.code })
      .from(paymentAllocations)
      .innerJoin(invoices, eq(invoices.id, paymentAllocations.invoiceId))
      .where(
        tenant.where(
          paymentAllocations,
          eq(paymentAllocations.kind, 'payment'),
          inArray(paymentAllocations.paymentId, ids),
        ),
      )
      .orderBy(asc(paymentAllocations.id)),
    db
      .select()
      .from(refunds)
      .where(tenant.where(refunds, inArray(refunds.paymentId, ids)))
      .orderBy(asc(refunds.createdAt), asc(refunds.id)),
  ]);
  return rows.map((payment) => {
    const codes = [
      ...new Set(paidInvoices.filter((a) => a.paymentId === payment.id).map((a) => a.code ?? '')),
    ];
    const purchase = payment.purchaseKind
      ? bought[payment.purchaseKind].get(payment.purchaseId ?? 0)
      : undefined;
    // A party's deposit is paid by card at checkout; its balance is recorded by staff.
    const forPurchase =
      purchase && payment.purchaseKind === 'party'
        ? purchase.replace(
            'Birthday party,',
            payment.method === 'card' ? 'Birthday party deposit,' : 'Birthday party balance,',
          )
        : purchase;
    const description =
      forPurchase ??
      (codes.length > 0
        ? `Invoice ${codes.join(', ')}`
        : payment.purchaseKind === null
          ? 'Kept as account credit'
          : '');
    return { payment, description, refunds: refundRows.filter((r) => r.paymentId === payment.id) };
  });
}

/** A statement line before its running balance; `at` orders lines of the same day. */
interface Line extends Omit<StatementEntry, 'balance'> {
  at: number;
}

/**
 * The family's account and statement. Every line says what it does to the balance (what the
 * family owes less their credit) and to their credit, so the closing balance is `owing − credit`:
 * - an invoice issued +total (a voided one −total again);
 * - a payment −amount; the part that neither met an invoice nor became credit paid a purchase at
 *   checkout, listed before it as a `purchase` line (+), so the balance stays true;
 * - a credit note −amount (any excess kept as credit is its `credit`);
 * - a refund to the card +amount (the part not taken back from an invoice lowered a purchase: a
 *   `purchase` line −); a refund to credit only moves credit when it came off an invoice;
 * - credit used on an invoice only moves credit; other credit (a cancellation) −amount, +credit.
 * 404 when the parent is not a family of the tenant.
 */
export async function familyStatement(
  db: Db,
  tenant: Tenant,
  parentId: number,
  range?: { from?: string; to?: string },
): Promise<FamilyStatement> {
  const parent = await parentOf(db, tenant, parentId);
  if (!parent) throw new NotFoundError();
  const [company, invoiceRows, notes, creditRows, [account], paid] = await Promise.all([
    companyOf(db, tenant),
    db
      .select()
      .from(invoices)
      .where(tenant.where(invoices, eq(invoices.parentId, parentId), ne(invoices.status, 'draft')))
      .orderBy(desc(invoices.issuedOn), desc(invoices.id)),
    db
      .select()
      .from(creditNotes)
      .where(tenant.where(creditNotes, eq(creditNotes.parentId, parentId))),
    db
      .select()
      .from(familyCreditEntries)
      .where(tenant.where(familyCreditEntries, eq(familyCreditEntries.parentId, parentId))),
    db
      .select()
      .from(familyAccounts)
      .where(tenant.where(familyAccounts, eq(familyAccounts.parentId, parentId))),
    familyPayments(db, tenant, parentId),
  ]);
  const today = todayIn(company.timeZone);
  const dayOf = (at: Date) => todayIn(company.timeZone, at);
  const invoiceIds = invoiceRows.map((i) => i.id);
  const paymentIds = paid.map((p) => p.payment.id);
  const [allocations, otherRefunds] = await Promise.all([
    invoiceIds.length === 0
      ? []
      : db
          .select()
          .from(paymentAllocations)
          .where(tenant.where(paymentAllocations, inArray(paymentAllocations.invoiceId, invoiceIds))),
    // Refunds naming the family whose payment is not among theirs (none expected; kept honest).
    db
      .select()
      .from(refunds)
      .where(
        tenant.where(
          refunds,
          eq(refunds.parentId, parentId),
          paymentIds.length > 0 ? notInArray(refunds.paymentId, paymentIds) : undefined,
        ),
      ),
  ]);
  const codeOf = new Map(invoiceRows.map((i) => [i.id, i.code ?? '']));
  const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);
  const lines: Line[] = [];
  const line = (
    at: Date,
    kind: StatementEntryKind,
    description: string,
    amount: number,
    more: Partial<Pick<Line, 'date' | 'reference' | 'method' | 'credit' | 'status'>> = {},
  ) =>
    lines.push({
      date: more.date ?? dayOf(at),
      at: at.getTime(),
      kind,
      description,
      amount,
      reference: more.reference ?? null,
      method: more.method ?? null,
      credit: more.credit ?? 0,
      status: more.status ?? null,
    });

  for (const invoice of invoiceRows) {
    // An invoice is dated the day it was issued, ordered by the moment it was.
    const at = invoice.issuedAt ?? invoice.createdAt;
    line(
      at,
      'invoice',
      `Invoice ${invoice.code}${invoice.dueOn ? `, due ${displayDate(invoice.dueOn)}` : ''}`,
      invoice.total,
      { reference: invoice.code, date: invoice.issuedOn ?? undefined },
    );
    if (invoice.status === 'void')
      line(
        invoice.voidedAt ?? at,
        'void',
        `Invoice ${invoice.code} voided${invoice.voidReason ? `: ${invoice.voidReason}` : ''}`,
        -invoice.total,
        { reference: invoice.code },
      );
  }

  const creditOf = (pick: (entry: (typeof creditRows)[number]) => boolean) =>
    sum(creditRows.filter(pick).map((e) => e.amount));
  const allRefunds = [...paid.flatMap((p) => p.refunds), ...otherRefunds];
  const paymentById = new Map(paid.map((p) => [p.payment.id, p]));

  for (const { payment, description } of paid) {
    const at = payment.paidAt!;
    const allocated = sum(
      allocations.filter((a) => a.kind === 'payment' && a.paymentId === payment.id).map((a) => a.amount),
    );
    const credit = creditOf(
      (e) => e.paymentId === payment.id && e.refundId === null && e.creditNoteId === null,
    );
    const purchase = payment.amount - allocated - credit;
    // Paying an invoice by card, what is more than the invoice is the card surcharge.
    const surcharge = payment.purchaseKind === 'invoice';
    if (purchase !== 0)
      line(at, 'purchase', surcharge ? 'Card surcharge' : description || 'Paid at booking', purchase);
    const method = methodLabel(payment);
    const named = description && (purchase === 0 || surcharge);
    line(
      at,
      'payment',
      named ? `Payment by ${method}: ${description}` : `Payment by ${method}`,
      -payment.amount,
      { method: payment.method, reference: payment.reference ?? `Receipt no. ${payment.id}`, credit },
    );
  }

  for (const note of notes) {
    line(
      note.createdAt,
      'credit_note',
      `Credit note ${note.code} on invoice ${codeOf.get(note.invoiceId) ?? ''}: ${note.reason}`,
      -note.amount,
      { reference: note.code, credit: creditOf((e) => e.creditNoteId === note.id) },
    );
  }

  for (const refund of allRefunds) {
    // What the refund did to the invoices (owed again) and to the family's credit.
    const owedAgain = -sum(allocations.filter((a) => a.refundId === refund.id).map((a) => a.amount));
    const credit = creditOf((e) => e.refundId === refund.id);
    const effect = owedAgain - credit;
    const method = paymentById.get(refund.paymentId)?.payment.method ?? null;
    const reference = `Receipt no. ${refund.paymentId}`;
    if (refund.destination === 'card' && refund.status !== 'failed') {
      line(refund.createdAt, 'refund', `Refund to the card: ${refund.reason}`, refund.amount, {
        method,
        reference,
        status: refund.status,
      });
      // The part not taken back from an invoice lowered what a purchase cost.
      const lowered = effect - refund.amount;
      if (lowered !== 0) {
        const what = paymentById.get(refund.paymentId)?.description;
        line(refund.createdAt, 'purchase', what ? `Refunded: ${what}` : 'Refunded', lowered);
      }
    } else {
      const words =
        refund.destination === 'card'
          ? `Refund to the card failed: ${refund.reason}`
          : `Refund to account credit: ${refund.reason}`;
      line(refund.createdAt, 'refund', words, effect, { method, reference, credit, status: refund.status });
    }
  }

  for (const entry of creditRows) {
    if (entry.paymentId !== null || entry.refundId !== null || entry.creditNoteId !== null) continue;
    // Credit used on an invoice lowers both what is owed and the credit: the balance stays.
    const used = entry.invoiceId !== null && entry.amount < 0;
    line(
      entry.createdAt,
      'credit',
      used ? `Credit used on invoice ${codeOf.get(entry.invoiceId!) ?? ''}` : `Credit: ${entry.reason}`,
      used ? 0 : -entry.amount,
      {
        credit: entry.amount,
        reference: used ? (codeOf.get(entry.invoiceId!) ?? null) : null,
      },
    );
  }

  lines.sort((a, b) => a.date.localeCompare(b.date) || a.at - b.at || order[a.kind] - order[b.kind]);
  let balance = 0;
  let opening = 0;
  const entries: StatementEntry[] = [];
  for (const { at: _at, ...rest } of lines) {
    balance += rest.amount;
    if (range?.from && rest.date < range.from) {
      opening = balance;
      continue;
    }
    if (range?.to && rest.date > range.to) continue;
    entries.push({ ...rest, balance });
  }

  const listed: StatementInvoice[] = invoiceRows.map((invoice) => ({
    id: invoice.id,
    code: invoice.code,
    status: statusOf(invoice, today),
    issued_on: invoice.issuedOn,
    due_on: invoice.dueOn,
    total: invoice.total,
    paid: invoice.amountPaid,
    credited: invoice.amountCredited,
    balance: invoice.status === 'void' ? 0 : invoiceBalance(invoice),
  }));
  const open = listed.filter((i) => i.status !== 'void');
  const card =
    account?.cardLast4 && account.cardBrand
      ? {
          brand: account.cardBrand,
          last4: account.cardLast4,
          exp_month: account.cardExpMonth,
          exp_year: account.cardExpYear,
          autopay: account.autopay,
        }
      : null;
  return {
    family: { id: parent.id, name: parent.fullName, email: parent.email },
    currency: company.currency,
    today,
    owing: sum(open.map((i) => i.balance)),
    overdue: sum(open.filter((i) => i.due_on !== null && i.due_on < today).map((i) => i.balance)),
    credit: account?.creditBalance ?? 0,
    saved_card: card,
    invoices: listed,
    from: range?.from ?? null,
    to: range?.to ?? null,
    opening_balance: opening,
    entries,
    closing_balance: entries.at(-1)?.balance ?? opening,
  };
}

/** Lines of one moment: the charge before the money that met it. */
const order: Record<StatementEntryKind, number> = {
  invoice: 0,
  purchase: 1,
  payment: 2,
  credit: 3,
  credit_note: 4,
  refund: 5,
  void: 6,
};

/** The statement as a PDF (staff "Download statement (PDF)", the parent's own). */
export async function statementPdf(
  db: Db,
  tenant: Tenant,
  parentId: number,
  range?: { from?: string; to?: string },
): Promise<Buffer> {
  const [statement, company] = await Promise.all([
    familyStatement(db, tenant, parentId, range),
    companyOf(db, tenant),
  ]);
  const money = (cents: number) => formatMoney(cents, company.currency);
  const period =
    statement.from || statement.to
      ? `${statement.from ? displayDate(statement.from) : 'the start'} to ${displayDate(statement.to ?? statement.today)}`
      : `Everything to ${displayDate(statement.today)}`;
  return renderPdf({
    title: 'Account statement',
    subtitle: company.name,
    sections: [
      {
        rows: [
          ['Family', `${statement.family.name} <${statement.family.email}>`],
          ['Period', period],
          ['Balance owing', money(statement.owing)],
          ['Overdue', money(statement.overdue)],
          ['Account credit', money(statement.credit)],
        ],
      },
      {
        heading: 'Invoices',
        rows:
          statement.invoices.length === 0
            ? [['', 'No invoices yet.']]
            : statement.invoices.map((i) => [
                i.code ?? '',
                `${i.issued_on ? displayDate(i.issued_on) : ''} · total ${money(i.total)} · balance ${money(i.balance)} · ${i.status.replace('_', '-')}`,
              ]),
      },
      {
        heading: 'Statement',
        rows: [
          ...(statement.from
            ? ([['Opening balance', money(statement.opening_balance)]] as [string, string][])
            : []),
          ...statement.entries.map((e): [string, string] => [
            displayDate(e.date),
            `${e.description} · ${e.amount > 0 ? '+' : ''}${money(e.amount)}${e.credit !== 0 ? ` (credit ${e.credit > 0 ? '+' : ''}${money(e.credit)})` : ''} · balance ${money(e.balance)}`,
          ]),
          ['Closing balance', money(statement.closing_balance)],
        ],
      },
    ],
    footer: 'A negative balance is account credit, used on your next invoice.',
  });
}
