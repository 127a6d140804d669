import type { ReportColumn, ReportFilter, ReportMeta, ReportResponse } from '@tumble/contracts/reports';
import { reportResponse } from '@tumble/contracts/reports';
import { calendarDate } from '@tumble/contracts/roll';
import { stringify } from 'csv-stringify/sync';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../auth.ts';
import { NotFoundError } from '../errors.ts';
import type { Permission } from '../permissions.ts';
import type { Tenant } from '../tenancy.ts';

export type ReportRow = Record<string, string | number | null>;
export type FilterValues = Record<string, string | number>;

/** One table of a report: its columns, the one SQL query that fills it, and an optional chart. */
export interface ReportTableDef {
  label: string;
  columns: ReportColumn[];
  /** A bar chart of this table: one bar per row, labelled by `x`, as long as `y`. */
  chart?: { x: string; y: string };
  /** The rows, from one query scoped to the tenant. */
  rows: (ctx: { db: Db; tenant: Tenant; filters: FilterValues }) => Promise<ReportRow[]>;
}

/**
 * A read-only report: filters in the URL → one SQL query per table → the same rows as a table, a
 * chart and a CSV. Example (features/parties/party-reports.routes.ts):
 *
 * ```ts
 * export const partyReport = defineReport({
 *   name: 'birthday-parties', title: 'Birthday party report', permission: 'bookings.read',
 *   filters: [{ name: 'year', label: 'Year', type: 'year' }],
 *   tables: { months: { label: 'By month', columns: [...], chart: { x: 'month', y: 'revenue' },
 *     rows: ({ db, tenant, filters }) => db.select(...).from(partyBookings).where(tenant.where(...)) } },
 * });
 * ```
 *
 * `reportRoutes([partyReport])` serves `GET /api/v1/admin/reports/birthday-parties?year=2026`
 * (JSON: the meta, the filter values and each table's rows) and `…&format=csv`; the SPA's
 * `ReportPage` (apps/web/src/features/reports/report-page.tsx) shows any report from its meta.
 */
/**
 * A filter of a report. A `select` with `optionsOf` offers the company's own things (its terms, its
 * events), read per request: `defaultOf`'s answer, else the first option, is the default, and a
 * value that is not one of them (another company's id) answers 404.
 */
export type ReportFilterDef = ReportFilter & {
  optionsOf?: (ctx: { db: Db; tenant: Tenant }) => Promise<{ value: string; label: string }[]>;
  /** The option chosen when none is asked for, where it is not the first (e.g. the term running today). */
  defaultOf?: (ctx: { db: Db; tenant: Tenant }) => Promise<string | null>;
};

export interface ReportDefinition {
  /** URL segment: /api/v1/admin/reports/<name>, /admin/reports/<name>. */
  name: string;
  title: string;
  permission: Permission;
  filters: ReportFilterDef[];
  tables: Record<string, ReportTableDef>;
}

export function defineReport(definition: ReportDefinition): ReportDefinition {
  for (const table of Object.values(definition.tables)) {
    const names = table.columns.map((c) => c.name);
    if (table.chart && !(names.includes(table.chart.x) && names.includes(table.chart.y)))
      throw new Error(`report ${definition.name}: the chart names a column the table does not have`);
  }
  return definition;
}

/** The zod schema of a report's filters, each with its default (this year for a year). */
function filterSchema(report: ReportDefinition) {
  return z.object(
    Object.fromEntries(
      report.filters.map((f) => {
        if (f.type === 'year')
          return [f.name, z.coerce.number().int().min(2000).max(2200).default(new Date().getUTCFullYear())];
        // No default here: the report's rows take the company's today (its time zone) when absent.
        if (f.type === 'date') return [f.name, calendarDate.optional()];
        if (f.optionsOf) return [f.name, z.string().max(100).optional()];
        const values = (f.options ?? []).map((o) => o.value);
        return [f.name, z.enum(values as [string, ...string[]]).default(values[0]!)];
      }),
    ),
  );
}

/** The company's options of each `optionsOf` filter, by filter name. */
type LoadedOptions = Record<string, { value: string; label: string }[]>;

export function reportMeta(report: ReportDefinition, loaded: LoadedOptions = {}): ReportMeta {
  return {
    name: report.name,
    title: report.title,
    filters: report.filters.map(({ optionsOf: _, ...f }) =>
      loaded[f.name] ? { ...f, options: loaded[f.name] } : f,
    ),
    tables: Object.entries(report.tables).map(([name, t]) => ({
      name,
      label: t.label,
      columns: t.columns,
      ...(t.chart ? { chart: t.chart } : {}),
    })),
  };
}

/** A cell's text, never read as a formula by a spreadsheet (a leading = + - @ tab or CR is quoted away). */
const cellText = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
};

/** Rows as CSV (csv-stringify): CRLF line ends; a cell with a comma, quote or line break is quoted. */
const csvLines = (rows: (string | number | null)[][]) =>
  stringify(
    rows.map((row) => row.map(cellText)),
    { record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  );

/** One CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
export function csvCell(value: string | number | null): string {
  return csvLines([[value]]).slice(0, -2);
}

const csvValue = (column: ReportColumn, value: string | number | null) =>
  column.type === 'money' && typeof value === 'number' ? (value / 100).toFixed(2) : value;

/** Each table as a header line and its rows, tables separated by an empty line. */
export function reportCsv(report: ReportDefinition, data: Record<string, ReportRow[]>): string {
  const tables = Object.entries(report.tables).map(([name, table]) =>
    csvLines([
      table.columns.map((c) => c.label),
      ...(data[name] ?? []).map((row) => table.columns.map((c) => csvValue(c, row[c.name] ?? null))),
    ]),
  );
  // The last line has no line end, as before the move to csv-stringify.
  return tables.join('\r\n').slice(0, -2);
}

/** The routes of these reports, each behind its permission. */
export function reportRoutes(reports: ReportDefinition[]): FastifyPluginAsyncZod {
  return async (app) => {
    for (const report of reports) {
      const querystring = filterSchema(report).extend({ format: z.enum(['json', 'csv']).default('json') });
      app.get(
        `/api/v1/admin/reports/${report.name}`,
        {
          schema: {
            tags: ['reports'],
            querystring,
            response: { 200: z.union([reportResponse, z.string()]) },
          },
          config: { access: report.permission },
        },
        async (request, reply) => {
          const { tenant } = requireAuth(request);
          const { format, ...filters } = request.query as FilterValues & { format: 'json' | 'csv' };
          const db = app.deps.database.db;
          const loaded: LoadedOptions = {};
          for (const f of report.filters) {
            if (!f.optionsOf) continue;
            const options = await f.optionsOf({ db, tenant });
            const chosen = filters[f.name];
            if (chosen === undefined)
              filters[f.name] = (await f.defaultOf?.({ db, tenant })) ?? options[0]?.value ?? '';
            else if (!options.some((o) => o.value === chosen)) throw new NotFoundError();
            loaded[f.name] = options;
          }
          const entries = await Promise.all(
            Object.entries(report.tables).map(
              async ([name, table]) => [name, await table.rows({ db, tenant, filters })] as const,
            ),
          );
          const data = Object.fromEntries(entries);
          if (format === 'json')
            return { meta: reportMeta(report, loaded), filters, data } satisfies ReportResponse;
          const suffix = Object.values(filters).join('-');
          return reply
            .type('text/csv; charset=utf-8')
            .header(
              'content-disposition',
              `attachment; filename="${report.name}${suffix ? `-${suffix}` : ''}.csv"`,
            )
            .send(reportCsv(report, data));
        },
      );
    }
  };
}
