import type { Db } from '../../db/client.ts';
import { BadRequestError } from '../../platform/errors.ts';
import { defineReport, type ReportRow, reportRoutes } from '../../platform/reports/report.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import {
  CONVERSION_WEEKS,
  type TrialDimension,
  type TrialGroup,
  trialConversions,
} from '../classes/term-figures.service.ts';
import { namesOfCoaches } from '../coaches/coaches.service.ts';
import { leadsBySource } from '../crm/crm.service.ts';
import { namesOfForms } from '../registration/form-names.service.ts';

export const PERIOD_BACKWARDS =
  'The period ends before it starts: choose a “To” date on or after the “From” date.';

/** Converted out of trials, as a percentage with one decimal; 0 with no trials. */
export const rate = (converted: number, trials: number) =>
  trials === 0 ? 0 : Math.round((converted / trials) * 1000) / 10;

/** The period asked for: by default the last 12 weeks to the company's today. */
async function periodOf(db: Db, tenant: Tenant, filters: Record<string, string | number>) {
  const { timeZone } = await companyOf(db, tenant);
  const today = todayIn(timeZone);
  const to = typeof filters.to === 'string' && filters.to ? filters.to : today;
  const from = typeof filters.from === 'string' && filters.from ? filters.from : addDays(to, -83);
  if (to < from) throw new BadRequestError(PERIOD_BACKWARDS);
  return { from, to, timeZone };
}

/** Rows of one grouping, named and ordered by most trials first, then by name. */
async function grouped(
  db: Db,
  tenant: Tenant,
  filters: Record<string, string | number>,
  by: TrialDimension,
): Promise<ReportRow[]> {
  const groups = await trialConversions(db, tenant, await periodOf(db, tenant, filters), by);
  const ids = groups.flatMap((g) => (g.key === null ? [] : [g.key]));
  const names =
    by === 'coach'
      ? await namesOfCoaches(db, tenant, ids)
      : by === 'form'
        ? await namesOfForms(db, tenant, ids)
        : new Map<number, string>();
  const none = by === 'coach' ? 'No coach' : 'Not recorded';
  const nameOf = (g: TrialGroup) => g.label ?? (g.key === null ? none : (names.get(g.key) ?? none));
  return groups
    .map((g) => ({
      name: nameOf(g),
      trials: g.trials,
      converted: g.converted,
      rate: rate(g.converted, g.trials),
    }))
    .sort((a, b) => b.trials - a.trials || a.name.localeCompare(b.name));
}

const groupColumns = (label: string) => [
  { name: 'name', label, type: 'text' as const },
  { name: 'trials', label: 'Trials', type: 'number' as const },
  { name: 'converted', label: `Enrolled within ${CONVERSION_WEEKS} weeks`, type: 'number' as const },
  { name: 'rate', label: 'Conversion rate (%)', type: 'number' as const },
];

/**
 * Trial conversions (SPEC reports/trial-conversions): trial places whose session fell in the period,
 * how many children enrolled afterwards (class-reports.service.ts says what counts) and the rate,
 * overall and by class type, coach and the registration form the trial was booked through ("Not
 * recorded" for a trial staff booked); and the CRM's leads of the period by source (Contacts, issue
 * 16) with how many became a family.
 */
export const trialConversionsReport = defineReport({
  name: 'trial-conversions',
  title: 'Trial conversions',
  permission: 'classes.write',
  filters: [
    { name: 'from', label: 'From', type: 'date' },
    { name: 'to', label: 'To', type: 'date' },
  ],
  tables: {
    summary: {
      label: 'All trials',
      columns: groupColumns('Period'),
      rows: async ({ db, tenant, filters }) => {
        const period = await periodOf(db, tenant, filters);
        const groups = await trialConversions(db, tenant, period, 'class_type');
        const trials = groups.reduce((n, g) => n + g.trials, 0);
        const converted = groups.reduce((n, g) => n + g.converted, 0);
        return [{ name: `${period.from} to ${period.to}`, trials, converted, rate: rate(converted, trials) }];
      },
    },
    classTypes: {
      label: 'By class type',
      columns: groupColumns('Class type'),
      chart: { x: 'name', y: 'rate' },
      rows: ({ db, tenant, filters }) => grouped(db, tenant, filters, 'class_type'),
    },
    coaches: {
      label: 'By coach',
      columns: groupColumns('Coach'),
      rows: ({ db, tenant, filters }) => grouped(db, tenant, filters, 'coach'),
    },
    sources: {
      label: 'By registration form',
      columns: groupColumns('Registration form'),
      rows: ({ db, tenant, filters }) => grouped(db, tenant, filters, 'form'),
    },
    leadSources: {
      label: 'Leads by source (Contacts added in the period)',
      columns: [
        { name: 'source', label: 'Lead source', type: 'text' },
        { name: 'leads', label: 'Leads', type: 'number' },
        { name: 'converted', label: 'Became a family', type: 'number' },
        { name: 'rate', label: 'Conversion rate (%)', type: 'number' },
      ],
      chart: { x: 'source', y: 'rate' },
      rows: async ({ db, tenant, filters }) =>
        (await leadsBySource(db, tenant, await periodOf(db, tenant, filters))).map((r) => ({
          ...r,
          rate: rate(r.converted, r.leads),
        })),
    },
  },
});

export const trialConversionsRoutes = reportRoutes([trialConversionsReport]);
