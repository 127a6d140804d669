import type { Db } from '../../db/client.ts';
import { defineReport, type ReportRow, reportRoutes } from '../../platform/reports/report.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import {
  comparedTerms,
  enrolmentsByClassType,
  fillByClassType,
  studentsBetween,
  type TermRef,
  termChoices,
  termOfToday,
} from '../classes/term-figures.service.ts';
import { conversionsBySource } from '../crm/crm.service.ts';
import { rate } from './trial-conversions.report.ts';

type Filters = Record<string, string | number>;

/** The chosen term (the framework has checked it is one of the company's) and the two it is compared with. */
async function termsOf(db: Db, tenant: Tenant, filters: Filters) {
  const id = Number(filters.term);
  return Number.isInteger(id) && id > 0 ? comparedTerms(db, tenant, id) : null;
}

/** The three terms' ids in a fixed order: this term, the previous one, the same term last year. */
const slots = (t: { current: TermRef; previous: TermRef | null; lastYear: TermRef | null }) =>
  [t.current, t.previous, t.lastYear] as const;

/** Class types as rows, one value per term slot, ordered by name. */
function pivot<T extends { termId: number; classType: string }>(
  rows: T[],
  terms: readonly (TermRef | null)[],
  value: (rows: T[]) => number | null,
): { classType: string; values: (number | null)[] }[] {
  const types = [...new Set(rows.map((r) => r.classType))].sort((a, b) => a.localeCompare(b));
  return types.map((classType) => ({
    classType,
    values: terms.map((term) =>
      term ? value(rows.filter((r) => r.classType === classType && r.termId === term.id)) : null,
    ),
  }));
}

/**
 * Enrolment comparison (SPEC reports/enrollment-comparison): a term against the one before it and
 * the same term last year: active full enrolments by class type, the students who came back, new
 * and lost students, and each class type's fill rate (places taken over capacity × sessions).
 */
export const enrollmentComparisonReport = defineReport({
  name: 'enrollment-comparison',
  title: 'Enrolment comparison',
  permission: 'classes.write',
  filters: [
    {
      name: 'term',
      label: 'Term',
      type: 'select',
      optionsOf: async ({ db, tenant }) =>
        (await termChoices(db, tenant)).map((t) => ({ value: String(t.id), label: t.name })),
      // Not the latest term: next term's enrolment has barely begun, so it reads as students lost.
      defaultOf: async ({ db, tenant }) => {
        const term = await termOfToday(db, tenant, todayIn((await companyOf(db, tenant)).timeZone));
        return term ? String(term.id) : null;
      },
    },
  ],
  tables: {
    terms: {
      label: 'Terms compared',
      columns: [
        { name: 'compared', label: 'Compared', type: 'text' },
        { name: 'term', label: 'Term', type: 'text' },
        { name: 'startDate', label: 'Starts', type: 'date' },
        { name: 'endDate', label: 'Ends', type: 'date' },
      ],
      rows: async ({ db, tenant, filters }) => {
        const t = await termsOf(db, tenant, filters);
        if (!t) return [];
        const labels = ['This term', 'Previous term', 'Same term last year'];
        return slots(t).map(
          (term, i): ReportRow => ({
            compared: labels[i]!,
            term: term?.name ?? 'None',
            startDate: term?.startDate ?? null,
            endDate: term?.endDate ?? null,
          }),
        );
      },
    },
    enrolments: {
      label: 'Enrolments by class type',
      columns: [
        { name: 'classType', label: 'Class type', type: 'text' },
        { name: 'current', label: 'This term', type: 'number' },
        { name: 'previous', label: 'Previous term', type: 'number' },
        { name: 'lastYear', label: 'Same term last year', type: 'number' },
      ],
      chart: { x: 'classType', y: 'current' },
      rows: async ({ db, tenant, filters }) => {
        const t = await termsOf(db, tenant, filters);
        if (!t) return [];
        const terms = slots(t);
        const counts = await enrolmentsByClassType(
          db,
          tenant,
          terms.flatMap((term) => (term ? [term.id] : [])),
        );
        return pivot(counts, terms, (rows) => rows.reduce((n, r) => n + r.enrolments, 0)).map(
          ({ classType, values: [current, previous, lastYear] }) => ({
            classType,
            current: current ?? null,
            previous: previous ?? null,
            lastYear: lastYear ?? null,
          }),
        );
      },
    },
    students: {
      label: 'Students: retention, new and lost',
      columns: [
        { name: 'compared', label: 'Compared with', type: 'text' },
        { name: 'term', label: 'Term', type: 'text' },
        { name: 'before', label: 'Students then', type: 'number' },
        { name: 'now', label: 'Students this term', type: 'number' },
        { name: 'returned', label: 'Came back', type: 'number' },
        { name: 'retention', label: 'Retention (%)', type: 'number' },
        { name: 'added', label: 'New', type: 'number' },
        { name: 'lost', label: 'Lost', type: 'number' },
      ],
      rows: async ({ db, tenant, filters }) => {
        const t = await termsOf(db, tenant, filters);
        if (!t) return [];
        const rows: ReportRow[] = [];
        for (const [compared, term] of [
          ['Previous term', t.previous],
          ['Same term last year', t.lastYear],
        ] as const) {
          if (!term) continue;
          const s = await studentsBetween(db, tenant, term.id, t.current.id);
          rows.push({ compared, term: term.name, ...s, retention: rate(s.returned, s.before) });
        }
        return rows;
      },
    },
    fill: {
      label: 'Class fill rate by class type (places taken ÷ capacity × sessions)',
      columns: [
        { name: 'classType', label: 'Class type', type: 'text' },
        { name: 'taken', label: 'Places taken', type: 'number' },
        { name: 'offered', label: 'Places offered', type: 'number' },
        { name: 'current', label: 'This term (%)', type: 'number' },
        { name: 'previous', label: 'Previous term (%)', type: 'number' },
        { name: 'lastYear', label: 'Same term last year (%)', type: 'number' },
      ],
      chart: { x: 'classType', y: 'current' },
      rows: async ({ db, tenant, filters }) => {
        const t = await termsOf(db, tenant, filters);
        if (!t) return [];
        const terms = slots(t);
        const fill = await fillByClassType(
          db,
          tenant,
          terms.flatMap((term) => (term ? [term.id] : [])),
        );
        const sum = (rows: typeof fill, key: 'taken' | 'offered') => rows.reduce((n, r) => n + r[key], 0);
        const percent = (rows: typeof fill) =>
          rows.length ? rate(sum(rows, 'taken'), sum(rows, 'offered')) : null;
        const now = pivot(fill, [t.current], (rows) => sum(rows, 'taken'));
        const offered = pivot(fill, [t.current], (rows) => sum(rows, 'offered'));
        return pivot(fill, terms, percent).map(({ classType, values: [current, previous, lastYear] }) => ({
          classType,
          taken: now.find((r) => r.classType === classType)?.values[0] ?? 0,
          offered: offered.find((r) => r.classType === classType)?.values[0] ?? 0,
          current: current ?? null,
          previous: previous ?? null,
          lastYear: lastYear ?? null,
        }));
      },
    },
    leadSources: {
      label: 'Leads that became a family, by lead source (Contacts converted in each term’s dates)',
      columns: [
        { name: 'source', label: 'Lead source', type: 'text' },
        { name: 'current', label: 'This term', type: 'number' },
        { name: 'previous', label: 'Previous term', type: 'number' },
        { name: 'lastYear', label: 'Same term last year', type: 'number' },
      ],
      rows: async ({ db, tenant, filters }) => {
        const t = await termsOf(db, tenant, filters);
        if (!t) return [];
        const periods = slots(t).map((term) => (term ? { from: term.startDate, to: term.endDate } : null));
        const { timeZone } = await companyOf(db, tenant);
        return (await conversionsBySource(db, tenant, periods, timeZone)).map(
          ({ source, counts: [current, previous, lastYear] }) => ({
            source,
            current: current ?? null,
            previous: previous ?? null,
            lastYear: lastYear ?? null,
          }),
        );
      },
    },
  },
});

export const enrollmentComparisonRoutes = reportRoutes([enrollmentComparisonReport]);
