import { z } from 'zod';

/**
 * The term billing run (issue 15): staff pick a term, see every family's invoice-to-be and the
 * totals, then issue them in one run whose progress the page polls. The preview and the run share
 * one computation on the server, so what the preview shows is what issuing makes.
 */

/** One line of a family's invoice-to-be, as the invoice will carry it (cents, GST included). */
export const billingRunLine = z.object({
  description: z.string(),
  /** How the line was worked out: sessions × rate, dates not charged, pro-rata start. */
  detail: z.string().nullable(),
  quantity: z.number(),
  unit_amount: z.number(),
  amount: z.number(),
  gst_free: z.boolean(),
  gst: z.number(),
});
export type BillingRunLine = z.infer<typeof billingRunLine>;

/** What one family will be billed by the run. */
export const billingRunFamily = z.object({
  parent_id: z.number(),
  family: z.string(),
  children: z.array(z.string()),
  lines: z.array(billingRunLine),
  /** The invoice's total and the GST inside it; 0 when the family only gets credit. */
  total: z.number(),
  gst: z.number(),
  /** Credit the family keeps (its credits came to more than its charges); 0 usually. */
  credit: z.number(),
});
export type BillingRunFamily = z.infer<typeof billingRunFamily>;

export const billingRunStatus = z.enum(['running', 'done', 'failed']);
export type BillingRunStatus = z.infer<typeof billingRunStatus>;

/** A run's progress: `processed` of `families` done, `issued` invoices worth `total` so far. */
export const billingRun = z.object({
  id: z.number(),
  term_id: z.number(),
  status: billingRunStatus,
  families: z.number(),
  processed: z.number(),
  issued: z.number(),
  total: z.number(),
  error: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});
export type BillingRun = z.infer<typeof billingRun>;

export const billingRunPreview = z.object({
  term: z.object({ id: z.number(), name: z.string() }),
  currency: z.string(),
  families: z.array(billingRunFamily),
  totals: z.object({
    /** Families with something to bill or credit. */
    families: z.number(),
    /** Invoices the run would issue. */
    invoices: z.number(),
    /** Their total, and the GST inside it. */
    amount: z.number(),
    gst: z.number(),
  }),
  /** The term's latest run (running or finished), if any. */
  last_run: billingRun.nullable(),
});
export type BillingRunPreview = z.infer<typeof billingRunPreview>;

export const billingRunMessages = {
  alreadyRunning: 'This term is already being billed. Wait for that run to finish.',
  termNotFound: 'That term could not be found.',
  runNotFound: 'That billing run could not be found.',
  nothingToBill: 'There is nothing new to bill in this term.',
  interrupted: 'The run stopped before it finished (the server restarted). Start it again to finish it.',
} as const;
