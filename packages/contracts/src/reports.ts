import { z } from 'zod';

/** How a report column's values are shown (money in cents, dates as YYYY-MM-DD). */
export const reportColumn = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(['text', 'number', 'money', 'date']),
});
export type ReportColumn = z.infer<typeof reportColumn>;

/** A filter of a report, carried in the URL (?year=2026). */
export const reportFilter = z.object({
  name: z.string(),
  label: z.string(),
  /** year: a year around this one; select: one of `options`; date: a day (YYYY-MM-DD, the company's today by default). */
  type: z.enum(['year', 'select', 'date']),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
});
export type ReportFilter = z.infer<typeof reportFilter>;

export const reportMeta = z.object({
  name: z.string(),
  title: z.string(),
  filters: z.array(reportFilter),
  tables: z.array(
    z.object({
      name: z.string(),
      label: z.string(),
      columns: z.array(reportColumn),
      /** A bar per row: labelled by column `x`, as long as column `y`. */
      chart: z.object({ x: z.string(), y: z.string() }).optional(),
    }),
  ),
});
export type ReportMeta = z.infer<typeof reportMeta>;

/** GET /api/v1/admin/reports/:name: the report's meta, the filter values used and each table's rows. */
export const reportResponse = z.object({
  meta: reportMeta,
  filters: z.record(z.string(), z.union([z.string(), z.number()])),
  data: z.record(z.string(), z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()])))),
});
export type ReportResponse = z.infer<typeof reportResponse>;
