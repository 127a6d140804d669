import { invoiceBalance } from '@tumble/contracts/billing';
import {
  paymentMessages,
  type RecordPaymentInput,
  type RecordPaymentOptions,
} from '@tumble/contracts/payments';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn, zonedInstant } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { parentOf } from '../accounts/parents.service.ts';
import { partiesOwing, partyBalanceOf, payPartyBalance } from '../parties/party-balance.service.ts';
import { allocatePayment, invoiceWithLines, openInvoicesOf } from './ledger.service.ts';
import { familyAccounts } from './ledger.tables.ts';

/**
 * Staff record money taken by hand (issue 15): cash, bank transfer, EFTPOS or a voucher, with the
 * reference they typed. It pays the family's ticked invoices (oldest due first; what is left is the
 * family's credit) or a party's balance, all in one transaction with its audit entry.
 */

/** A refusal that belongs to one field of the form (the page shows it there). */
export class PaymentFieldError extends BadRequestError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface RecordedPayment {
  paymentId: number;
  allocated: { invoiceId: number; code: string; amount: number }[];
  credit: number;
}

/** The family's credit balance (cents). */
async function creditOf(db: Db, tenant: Tenant, parentId: number): Promise<number> {
  const [account] = await db
    .select({ credit: familyAccounts.creditBalance })
    .from(familyAccounts)
    .where(tenant.where(familyAccounts, eq(familyAccounts.parentId, parentId)));
  return account?.credit ?? 0;
}

/**
 * Records one payment. The ticked invoices must be the family's and still owing (another company's
 * → 404; another family's or a paid one → 400 on the field); a party's balance is lowered under the
 * party booking's lock and never below nothing. Nothing is written unless all of it is.
 */
export async function recordPayment(
  deps: AppDeps,
  auth: AuthContext,
  input: RecordPaymentInput,
): Promise<RecordedPayment> {
  const { db } = deps.database;
  const { tenant } = auth;
  const company = await companyOf(db, tenant);
  const today = todayIn(company.timeZone);
  if (input.received_on > today) throw new PaymentFieldError('received_on', paymentMessages.future);
  const family = await parentOf(db, tenant, input.parent_id);
  if (!family) throw new NotFoundError();
  if (input.party_booking_id !== null) {
    const party = await partyBalanceOf(db, tenant, input.party_booking_id);
    if (!party) throw new NotFoundError();
    if (party.parentId !== family.id)
      throw new PaymentFieldError('party_booking_id', paymentMessages.partyPaid);
  }
  // Ticked invoices: another company's → 404; this company's but not this family's owing ones → 400.
  const open = await openInvoicesOf(db, tenant, family.id);
  for (const invoiceId of input.invoice_ids) {
    if (!(await invoiceWithLines(db, tenant, invoiceId))) throw new NotFoundError();
    if (!open.some((invoice) => invoice.id === invoiceId))
      throw new PaymentFieldError('invoice_ids', paymentMessages.invoiceChoice);
  }
  // Oldest due first, whatever order they were ticked in.
  const invoiceIds = open.map((invoice) => invoice.id).filter((id) => input.invoice_ids.includes(id));
  // Paid on the day received: now when it is today, else midday of that day in the company's zone.
  const paidAt =
    input.received_on === today ? new Date() : zonedInstant(input.received_on, '12:00', company.timeZone);

  return db.transaction(async (tx) => {
    const [payment] = await tx
      .insert(payments)
      .values(
        tenant.values({
          method: input.method,
          parentId: family.id,
          reference: input.reference || null,
          recordedBy: auth.userId,
          amount: input.amount,
          status: 'paid' as const,
          paidAt,
          purchaseKind: input.party_booking_id !== null ? ('party' as const) : null,
          purchaseId: input.party_booking_id,
        }),
      )
      .returning();
    let result: RecordedPayment;
    if (input.party_booking_id !== null) {
      try {
        await payPartyBalance(tx, tenant, input.party_booking_id, input.amount);
      } catch (error) {
        if (error instanceof BadRequestError) throw new PaymentFieldError('amount', error.message);
        throw error;
      }
      result = { paymentId: payment!.id, allocated: [], credit: 0 };
    } else {
      const shared = await allocatePayment(
        tx,
        tenant,
        { id: payment!.id, parentId: family.id, amount: input.amount },
        today,
        invoiceIds,
      );
      result = {
        paymentId: payment!.id,
        allocated: shared.allocated.map((a) => ({
          ...a,
          code: open.find((invoice) => invoice.id === a.invoiceId)?.code ?? '',
        })),
        credit: shared.credit,
      };
    }
    await recordAudit(tx, auth, {
      action: 'record',
      entity: 'payment',
      entityId: payment!.id,
      after: {
        family: family.fullName,
        method: input.method,
        amount: formatMoney(input.amount, company.currency),
        received_on: input.received_on,
        reference: input.reference,
        invoices: result.allocated.map((a) => a.code).join(', '),
        party_booking_id: input.party_booking_id,
        credit: formatMoney(result.credit, company.currency),
      },
    });
    return result;
  });
}

/**
 * What the record-a-payment page offers: the family (chosen, or the one the invoice or party
 * booking in the link belongs to), its open invoices oldest due first with their balances, its
 * parties with a balance, and its credit. 404 for another company's family, invoice or party.
 */
export async function recordPaymentOptions(
  deps: AppDeps,
  tenant: Tenant,
  query: { family?: number; invoice?: number; party_booking?: number },
): Promise<RecordPaymentOptions> {
  const { db } = deps.database;
  const company = await companyOf(db, tenant);
  let familyId = query.family ?? null;
  if (query.invoice !== undefined) {
    const found = await invoiceWithLines(db, tenant, query.invoice);
    if (!found) throw new NotFoundError();
    familyId = found.invoice.parentId;
  }
  if (query.party_booking !== undefined) {
    const party = await partyBalanceOf(db, tenant, query.party_booking);
    if (!party) throw new NotFoundError();
    familyId = party.parentId;
  }
  const family = familyId === null ? null : await parentOf(db, tenant, familyId);
  if (familyId !== null && !family) throw new NotFoundError();
  const base = {
    today: todayIn(company.timeZone),
    currency: company.currency,
    selected: { invoice_id: query.invoice ?? null, party_booking_id: query.party_booking ?? null },
  };
  if (!family) return { ...base, family: null, credit_balance: 0, invoices: [], parties: [] };
  const [invoices, parties, credit] = [
    await openInvoicesOf(db, tenant, family.id),
    await partiesOwing(db, tenant, family.id),
    await creditOf(db, tenant, family.id),
  ];
  return {
    ...base,
    family: { id: family.id, name: family.fullName, email: family.email },
    credit_balance: credit,
    invoices: invoices.map((invoice) => ({
      id: invoice.id,
      code: invoice.code ?? '',
      issued_on: invoice.issuedOn,
      due_on: invoice.dueOn,
      total: invoice.total,
      balance: invoiceBalance(invoice),
      status: invoice.status,
    })),
    parties: parties.map((p) => ({
      id: p.id,
      code: p.code,
      date: p.date,
      total: p.total,
      balance: p.balance,
    })),
  };
}
