import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type MovedCounts, moveRows } from '../students/merge-rows.ts';
import { autopayAttempts, cardSetups } from './autopay.tables.ts';
import { couponRedemptions } from './billing.tables.ts';
import { invoiceCheckouts } from './invoice-checkouts.tables.ts';
import { creditNotes, familyAccounts, familyCreditEntries, invoices, refunds } from './ledger.tables.ts';

/**
 * A family merge: the duplicate parent's ledger (invoices, payments, refunds, credit notes,
 * credit entries, checkouts, card setups, autopay attempts) and coupon redemptions, so per-parent
 * coupon limits count both families' uses from now on. Issued documents keep their numbers and
 * lines; only the family they belong to changes. The family account: the credit balances add
 * up; the kept family's saved card stays, or the duplicate's moves when the kept family has none.
 */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return {
    family_accounts: await mergeFamilyAccounts(tx, tenant, from, to),
    invoices: await moveRows(tx, tenant, invoices, 'parentId', from, to),
    payments: await moveRows(tx, tenant, payments, 'parentId', from, to),
    refunds: await moveRows(tx, tenant, refunds, 'parentId', from, to),
    credit_notes: await moveRows(tx, tenant, creditNotes, 'parentId', from, to),
    family_credit_entries: await moveRows(tx, tenant, familyCreditEntries, 'parentId', from, to),
    invoice_checkouts: await moveRows(tx, tenant, invoiceCheckouts, 'parentId', from, to),
    card_setups: await moveRows(tx, tenant, cardSetups, 'parentId', from, to),
    autopay_attempts: await moveRows(tx, tenant, autopayAttempts, 'parentId', from, to),
    coupon_redemptions: await moveRows(tx, tenant, couponRedemptions, 'parentId', from, to),
  };
}

async function mergeFamilyAccounts(tx: Db, tenant: Tenant, from: number, to: number): Promise<number> {
  const accountOf = async (parentId: number) =>
    (
      await tx
        .select()
        .from(familyAccounts)
        .where(tenant.where(familyAccounts, eq(familyAccounts.parentId, parentId)))
        .for('update')
    )[0];
  const duplicate = await accountOf(from);
  if (!duplicate) return 0;
  const kept = await accountOf(to);
  if (!kept) return moveRows(tx, tenant, familyAccounts, 'parentId', from, to);
  const card = kept.cardRef
    ? {}
    : {
        cardProvider: duplicate.cardProvider,
        cardCustomerRef: duplicate.cardCustomerRef,
        cardRef: duplicate.cardRef,
        cardBrand: duplicate.cardBrand,
        cardLast4: duplicate.cardLast4,
        cardExpMonth: duplicate.cardExpMonth,
        cardExpYear: duplicate.cardExpYear,
        cardSavedAt: duplicate.cardSavedAt,
        autopay: kept.autopay || duplicate.autopay,
      };
  await tx
    .update(familyAccounts)
    .set({ creditBalance: kept.creditBalance + duplicate.creditBalance, ...card })
    .where(tenant.byId(familyAccounts, kept.id));
  // Its balance now lives on the kept account (the entries that explain it moved too).
  await tx.delete(familyAccounts).where(tenant.byId(familyAccounts, duplicate.id));
  return 1;
}
