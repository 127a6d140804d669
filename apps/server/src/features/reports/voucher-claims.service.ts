import type { VoucherClaimRequest } from '@tumble/contracts/reports-extra';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { redemptionsQuery } from '../billing/billing-reports.service.ts';
import { classVouchersQuery } from '../classes/class-money-reads.service.ts';
import { voucherClaims } from './vouchers.tables.ts';

/** The claim status of each voucher code staff have marked, for the vouchers report to join. */
export function voucherClaimsQuery(db: Db, tenant: Tenant) {
  return db
    .select({ code: sql<string>`${voucherClaims.code}`.as('claim_code'), status: voucherClaims.status })
    .from(voucherClaims)
    .where(tenant.where(voucherClaims))
    .as('voucher_claim_status');
}

/** Whether the company has redeemed this voucher code on a purchase (event, party or class fees). */
async function redeemed(db: Db, tenant: Tenant, code: string): Promise<boolean> {
  const r = redemptionsQuery(db, tenant);
  const c = classVouchersQuery(db, tenant);
  const count = sql<number>`count(*)::int`;
  const [onPurchases] = await db.select({ n: count }).from(r).where(eq(r.voucherCode, code));
  const [onClasses] = await db.select({ n: count }).from(c).where(eq(c.code, code));
  return (onPurchases?.n ?? 0) + (onClasses?.n ?? 0) > 0;
}

/**
 * Staff mark a redeemed voucher claimed from Service NSW, or reimbursed once it has paid (audited).
 * A code the company never redeemed is 404; marking the same status again changes nothing.
 */
export async function markVoucherClaim(db: Db, auth: AuthContext, input: VoucherClaimRequest): Promise<void> {
  const { tenant } = auth;
  if (!(await redeemed(db, tenant, input.code))) throw new NotFoundError();
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(voucherClaims)
      .where(tenant.where(voucherClaims, eq(voucherClaims.code, input.code)))
      .for('update');
    if (before?.status === input.status) return;
    const now = new Date();
    const values = {
      status: input.status,
      claimedAt: before?.claimedAt ?? now,
      reimbursedAt: input.status === 'reimbursed' ? now : null,
      updatedBy: auth.userId,
    };
    const [after] = before
      ? await tx.update(voucherClaims).set(values).where(tenant.byId(voucherClaims, before.id)).returning()
      : await tx
          .insert(voucherClaims)
          .values(tenant.values({ code: input.code, ...values }))
          .returning();
    await recordAudit(tx, auth, {
      action: input.status === 'claimed' ? 'voucher claimed' : 'voucher reimbursed',
      entity: 'voucher_claims',
      entityId: after!.id,
      before: before ?? null,
      after,
    });
  });
}
