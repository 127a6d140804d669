import { z } from 'zod';

/** The installation operator's pages (SPEC customers; decision 018). */

export const companyStatuses = ['pending', 'active', 'suspended', 'declined'] as const;
export type CompanyStatus = (typeof companyStatuses)[number];
export const companyStatusLabels: Record<CompanyStatus, string> = {
  pending: 'Pending',
  active: 'Active',
  suspended: 'Suspended',
  declined: 'Declined',
};

/** One row of /admin/customers: a company, its plan and what it uses this month. */
export const customerRow = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(companyStatuses),
  /** Why it was suspended or declined. */
  status_reason: z.string().nullable(),
  /** From the company's subscription; null until it has one. */
  plan: z.string().nullable(),
  subscription_status: z.string().nullable(),
  trial_ends_at: z.string().nullable(),
  currency: z.string(),
  /** Names the company on its public pages (booking, party, registration). */
  authhash: z.string(),
  usage: z.object({
    children: z.number(),
    staff: z.number(),
    /** Event bookings confirmed this month, in the company's time zone. */
    bookings_this_month: z.number(),
    /** Cents received this month (refunds taken off). */
    revenue_this_month: z.number(),
    /** Bytes of uploaded files; null when the file store cannot tell. */
    storage_bytes: z.number().nullable(),
  }),
  contact: z.object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
  }),
  created_at: z.string(),
});
export type CustomerRow = z.infer<typeof customerRow>;

export const customersResponse = z.object({ customers: z.array(customerRow) });
export type CustomersResponse = z.infer<typeof customersResponse>;

/** One entry of what the installation did to a company (approve, suspend, support access, …). */
export const customerHistoryEntry = z.object({
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  summary: z.string(),
});

export const customerDetail = customerRow.extend({ history: z.array(customerHistoryEntry) });
export type CustomerDetail = z.infer<typeof customerDetail>;

/** Approve and reactivate take no reason; decline may give one; suspend must. */
export const customerAction = z.enum(['approve', 'decline', 'suspend', 'reactivate']);
export type CustomerAction = z.infer<typeof customerAction>;

export const customerActionRequest = z.object({
  reason: z.string().trim().max(500, 'The reason must be at most 500 characters.').optional(),
});
export type CustomerActionRequest = z.infer<typeof customerActionRequest>;

export const SUSPEND_REASON_REQUIRED = 'A reason is required to suspend a company.';
export const SUPPORT_REASON_REQUIRED = 'A reason is required to open a company as support.';

/** "Open as support": the reason is recorded in the company's audit log. */
export const supportRequest = z.object({
  reason: z
    .string()
    .trim()
    .min(1, SUPPORT_REASON_REQUIRED)
    .max(500, 'The reason must be at most 500 characters.'),
});
export type SupportRequest = z.infer<typeof supportRequest>;
export const supportResponse = z.object({ company_name: z.string(), until: z.string() });
