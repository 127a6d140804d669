import { z } from 'zod';

/** POST /api/v1/admin/reports/vouchers/claims: staff mark a redeemed NSW voucher claimed or reimbursed. */
export const voucherClaimRequest = z.object({
  code: z.string().trim().min(1).max(40),
  status: z.enum(['claimed', 'reimbursed']),
});
export type VoucherClaimRequest = z.infer<typeof voucherClaimRequest>;
