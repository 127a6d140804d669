import { invoiceBalance } from '@tumble/contracts/billing';
import {
  type InvoiceCheckoutRequest,
  type InvoicePaymentResponse,
  type PaymentChoice,
  planCountsFor,
  planInstalments,
} from '@tumble/contracts/payments';
import { and, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { type Company, companyOf } from '../accounts/accounts.service.ts';
import { checkout } from '../checkout/checkout.ts';
import type { PlanBase, Priced, SaleKind } from '../checkout/sale-kind.ts';
import { type PricingLine, surchargeLine } from '../pricing/pricing.ts';
import { surchargeFor } from './billing.service.ts';
import { invoiceCheckouts } from './invoice-checkouts.tables.ts';
import {
  allocatePayment,
  type Invoice,
  invoiceWithLines,
  lockInvoice,
  moveFamilyCredit,
} from './ledger.service.ts';
import {
  cancelOpenInstalments,
  createPaymentPlan,
  type Instalment,
  markInstalmentPaid,
  nextInstalment,
  planOf,
} from './payment-plans.service.ts';

/**
 * A parent paying an invoice online (SPEC student/payment) as a kind of sale of the purchase
 * pipeline (decision 010): in full, by a new payment plan (its first instalment now), or the next
 * instalment of the plan it has. The amount is always the server's: the balance or the instalment.
 *
 * Money that arrives for an invoice that was voided or paid another way meanwhile is not refused:
 * it becomes the family's credit (`stillFree` is always true). A family keeps being billed each term,
 * so credit is used by their next invoice without anyone acting, and staff can still refund it from
 * credit; `refund_due` would leave the money waiting on staff and the parent with nothing to show.
 */

/** A short hold: nothing is scarce, it only keeps a parent from paying the same bill twice at once. */
export const INVOICE_HOLD_MINUTES = 15;

const OPEN: Invoice['status'][] = ['issued', 'part_paid', 'overdue'];

const notPayable = 'This invoice has nothing left to pay.';

/** What one choice pays: its amount on the invoice, the instalment, a new plan's size. */
interface Target {
  amount: number;
  label: string;
  description: string;
  instalmentId: number | null;
  newPlan: number | null;
}

/** The parent's own issued invoice; 404 for anyone else's (another family, another company, a draft). */
async function ownInvoice(db: Db, tenant: Tenant, parentId: number, invoiceId: number) {
  const found = await invoiceWithLines(db, tenant, invoiceId);
  if (!found || found.invoice.parentId !== parentId || found.invoice.status === 'draft')
    throw new NotFoundError();
  return found;
}

/** The plan as the parent reads it: instalment 1 of n, whatever positions earlier plans used. */
function planView(plan: Instalment[]) {
  return plan.map((i, index) => ({
    position: index + 1,
    due_on: i.dueOn,
    amount: i.amount,
    status: i.status,
  }));
}

/** What `choice` pays on `invoice` today; 400 when it is not offered. */
function targetOf(
  invoice: Invoice,
  plan: Instalment[],
  choice: InvoiceCheckoutRequest['choice'],
  today: string,
): Target {
  const balance = invoiceBalance(invoice);
  if (!OPEN.includes(invoice.status) || balance <= 0) throw new BadRequestError(notPayable);
  if (choice === 'full')
    return {
      amount: balance,
      label: `Invoice ${invoice.code}`,
      description: 'Balance',
      instalmentId: null,
      newPlan: null,
    };
  if (choice === 'instalment') {
    const next = nextInstalment(plan);
    if (!next) throw new BadRequestError('This invoice has no instalment to pay.');
    const position = plan.indexOf(next) + 1;
    return {
      amount: Math.min(next.amount, balance),
      label: `Instalment ${position} of ${plan.length}`,
      description: `Invoice ${invoice.code}`,
      instalmentId: next.id,
      newPlan: null,
    };
  }
  const count = Number(choice.slice('plan_'.length));
  if (plan.length > 0) throw new BadRequestError('This invoice is already paid by a payment plan.');
  if (!planCountsFor(balance, invoice.dueOn, today).includes(count))
    throw new BadRequestError(`A payment plan of ${count} instalments is not available for this invoice.`);
  return {
    amount: planInstalments(balance, count, today)[0]!.amount,
    label: `Instalment 1 of ${count}`,
    description: `Invoice ${invoice.code}`,
    instalmentId: null,
    newPlan: count,
  };
}

interface InvoicePriced extends Priced {
  lines: PricingLine[];
  surcharge: number;
}

/** The target's price lines: what goes on the invoice, the card surcharge if any, the total charged. */
async function priceTarget(db: Db, tenant: Tenant, company: Company, target: Target): Promise<InvoicePriced> {
  const line = (key: PricingLine['key'], label: string, description: string, value: number): PricingLine => ({
    key,
    label,
    description,
    value,
    formatted: formatMoney(value, company.currency),
  });
  const lines = [line('subtotal', target.label, target.description, target.amount)];
  const surcharge = surchargeLine(target.amount, await surchargeFor(db, tenant, company.paymentMethod));
  if (surcharge) lines.push(line('surcharge', surcharge.label, surcharge.description, surcharge.amount));
  const amountDue = target.amount + (surcharge?.amount ?? 0);
  lines.push(line('amount_due', 'To pay now', 'Charged to your card', amountDue));
  return { lines, amountDue, surcharge: surcharge?.amount ?? 0 };
}

interface InvoicePlan extends PlanBase {
  input: InvoiceCheckoutRequest;
  today: string;
  target: Target;
}

/**
 * The parent's card payment of this invoice still under way (pending, hold not ended), if any. The
 * autopay job should skip such an invoice and its instalments, or the family pays twice (the second
 * payment would only become credit).
 */
export async function cardPaymentUnderWay(db: Db, tenant: Tenant, invoiceId: number) {
  const [row] = await db
    .select({ id: invoiceCheckouts.id })
    .from(invoiceCheckouts)
    .where(
      tenant.where(
        invoiceCheckouts,
        eq(invoiceCheckouts.invoiceId, invoiceId),
        eq(invoiceCheckouts.status, 'pending'),
        gt(invoiceCheckouts.holdExpiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row ?? null;
}

export const invoiceSale: SaleKind<InvoiceCheckoutRequest, InvoicePlan> = {
  kind: 'invoice',
  codePrefix: 'IP',
  holdMinutes: INVOICE_HOLD_MINUTES,

  async plan(deps, tenant, parentId, input) {
    const { db } = deps.database;
    const { invoice } = await ownInvoice(db, tenant, parentId, input.invoice_id);
    const company = await companyOf(db, tenant);
    const today = todayIn(company.timeZone);
    const target = targetOf(invoice, await planOf(db, tenant, invoice.id), input.choice, today);
    return {
      company,
      parentId,
      // Invoices take no discount codes (a credit note lowers an invoice); the scope is never read.
      couponCode: '',
      nswCode: '',
      scope: { kind: 'classes' },
      clientAmount: input.amount,
      children: [],
      input,
      today,
      target,
    };
  },

  price: (deps, tenant, plan) => priceTarget(deps.database.db, tenant, plan.company, plan.target),

  priceChanged: (amount, company) =>
    `The amount to pay has changed to ${formatMoney(amount, company.currency)}. Please check it and pay again.`,

  async lock(tx, tenant, plan) {
    // The invoice's row lock queues two payments of one invoice; the second finds the first pending.
    const invoice = await lockInvoice(tx, tenant, plan.input.invoice_id);
    if (await cardPaymentUnderWay(tx, tenant, invoice.id))
      throw new ConflictError(
        'A card payment for this invoice is already under way. Please finish it, or try again in a few minutes.',
      );
    const now = targetOf(invoice, await planOf(tx, tenant, invoice.id), plan.input.choice, plan.today);
    if (now.amount !== plan.target.amount)
      throw new ConflictError(invoiceSale.priceChanged(now.amount, plan.company));
    plan.target = now;
  },

  async insert(tx, tenant, plan, priced, hold) {
    const { target } = plan;
    const instalmentId = target.newPlan
      ? (await createPaymentPlan(tx, tenant, plan.input.invoice_id, target.newPlan, plan.today))[0]!.id
      : target.instalmentId;
    const [row] = await tx
      .insert(invoiceCheckouts)
      .values(
        tenant.values({
          parentId: hold.parentId,
          invoiceId: plan.input.invoice_id,
          instalmentId,
          madePlan: target.newPlan !== null,
          amount: target.amount,
          surcharge: (priced as InvoicePriced).surcharge,
          amountDue: priced.amountDue,
          status: hold.status,
          reference: hold.reference,
          code: hold.code,
          holdExpiresAt: hold.holdExpiresAt,
        }),
      )
      .returning({ id: invoiceCheckouts.id, reference: invoiceCheckouts.reference });
    return row!;
  },

  cardPayment(plan) {
    return {
      description: `${plan.target.label}, ${plan.target.description}`,
      returnPath: `/admin/student/payment?invoice=${plan.input.invoice_id}&status=true`,
    };
  },

  async lockPurchase(tx, tenant, id) {
    const [row] = await tx
      .select()
      .from(invoiceCheckouts)
      .where(tenant.byId(invoiceCheckouts, id))
      .for('update');
    return row ?? null;
  },

  // Paying a bill takes nothing anyone else could take: late money is always accepted (see above).
  stillFree: async () => true,

  async setStatus(tx, tenant, id, status) {
    const confirming = status === 'confirmed' ? { confirmedAt: sql`now()`, holdExpiresAt: null } : {};
    await tx
      .update(invoiceCheckouts)
      .set({ status, ...confirming })
      .where(tenant.byId(invoiceCheckouts, id));
  },

  async confirmed(_deps, tx, tenant, id) {
    const [row] = await tx.select().from(invoiceCheckouts).where(tenant.byId(invoiceCheckouts, id));
    const purchase = row!;
    // The card payment being settled (its row is locked by settlement, which marks it paid after this).
    const [payment] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(
        tenant.where(
          payments,
          eq(payments.purchaseKind, 'invoice'),
          eq(payments.purchaseId, id),
          inArray(payments.status, ['open', 'failed']),
        ),
      )
      .orderBy(desc(payments.id))
      .limit(1);
    if (!payment) throw new Error(`invoice checkout ${id} confirmed without its card payment`);
    const { timeZone } = await companyOf(tx, tenant);
    const today = todayIn(timeZone);
    const invoice = await lockInvoice(tx, tenant, purchase.invoiceId);
    if (purchase.instalmentId !== null)
      await markInstalmentPaid(tx, tenant, purchase.instalmentId, payment.id);
    if (OPEN.includes(invoice.status) && invoiceBalance(invoice) > 0) {
      // Anything beyond what the invoice still asks (paid meanwhile in part) becomes credit.
      await allocatePayment(
        tx,
        tenant,
        { id: payment.id, parentId: purchase.parentId, amount: purchase.amount },
        today,
        [invoice.id],
      );
    } else {
      await moveFamilyCredit(tx, tenant, {
        parentId: purchase.parentId,
        amount: purchase.amount,
        reason: `Payment ${purchase.code}: invoice ${invoice.code} was already settled`,
        paymentId: payment.id,
      });
    }
    const after = await lockInvoice(tx, tenant, invoice.id);
    if (after.status === 'paid') await cancelOpenInstalments(tx, tenant, invoice.id);
  },

  async released(tx, tenant, id) {
    // A plan made by a checkout that was never paid is given up, so the parent may choose again.
    const [row] = await tx.select().from(invoiceCheckouts).where(tenant.byId(invoiceCheckouts, id));
    if (!row?.madePlan) return;
    const plan = await planOf(tx, tenant, row.invoiceId);
    if (plan.every((i) => i.status !== 'paid')) await cancelOpenInstalments(tx, tenant, row.invoiceId);
  },

  async afterRelease() {
    // Nothing was held for anyone else.
  },

  lapsed: (db) =>
    db
      .select({ id: invoiceCheckouts.id, companyId: invoiceCheckouts.companyId })
      .from(invoiceCheckouts)
      // cross-tenant: the hold sweep runs for every company; each row carries its companyId on.
      .where(and(eq(invoiceCheckouts.status, 'pending'), lt(invoiceCheckouts.holdExpiresAt, sql`now()`)))
      .limit(500),
};

/** POST /api/v1/students/invoice-payment/checkout: the parent pays their own invoice by card. */
export function checkoutInvoice(
  deps: AppDeps,
  auth: AuthContext,
  input: InvoiceCheckoutRequest,
  origin: string = deps.config.publicUrl,
) {
  if (auth.role !== 'student') throw new NotFoundError();
  return checkout(deps, auth.tenant, auth.userId, invoiceSale, input, origin);
}

/** GET /api/v1/students/invoice-payment?invoice=<id>: the parent's invoice and the ways to pay it today. */
export async function invoicePayment(
  deps: AppDeps,
  auth: AuthContext,
  invoiceId: number,
): Promise<InvoicePaymentResponse> {
  const { db } = deps.database;
  const { tenant } = auth;
  const { invoice, lines } = await ownInvoice(db, tenant, auth.userId, invoiceId);
  const company = await companyOf(db, tenant);
  const today = todayIn(company.timeZone);
  const plan = await planOf(db, tenant, invoice.id);
  const balance = invoiceBalance(invoice);
  const keys: InvoiceCheckoutRequest['choice'][] = [];
  if (OPEN.includes(invoice.status) && balance > 0) {
    if (nextInstalment(plan)) keys.push('instalment');
    keys.push('full');
    if (plan.length === 0)
      for (const count of planCountsFor(balance, invoice.dueOn, today))
        keys.push(`plan_${count}` as InvoiceCheckoutRequest['choice']);
  }
  const choices: PaymentChoice[] = [];
  for (const key of keys) {
    const target = targetOf(invoice, plan, key, today);
    const priced = await priceTarget(db, tenant, company, target);
    choices.push({
      key,
      label:
        key === 'full'
          ? plan.length > 0
            ? 'Pay the rest in full'
            : 'Pay in full'
          : key === 'instalment'
            ? `Pay ${target.label.toLowerCase()}`
            : `${target.newPlan} instalments`,
      amount_due: priced.amountDue,
      pricing_details: Object.fromEntries(
        priced.lines.map((l) => [
          l.key,
          { label: l.label, description: l.description, value: l.value, formatted: l.formatted },
        ]),
      ),
      instalments: target.newPlan
        ? planInstalments(balance, target.newPlan, today).map((i) => ({ ...i, status: 'due' as const }))
        : [],
    });
  }
  return {
    invoice: {
      id: invoice.id,
      code: invoice.code ?? '',
      status: invoice.status,
      issued_on: invoice.issuedOn,
      due_on: invoice.dueOn,
      total: invoice.total,
      paid: invoice.amountPaid + invoice.amountCredited,
      balance,
      lines: lines.map((l) => ({ description: l.description, detail: l.detail, amount: l.amount })),
    },
    currency: company.currency,
    plan: planView(plan),
    pending_payment: (await cardPaymentUnderWay(db, tenant, invoice.id)) !== null,
    choices,
  };
}
