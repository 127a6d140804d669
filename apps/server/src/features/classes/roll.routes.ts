import { errorResponse, formResponse } from '@tumble/contracts/http';
import {
  ageText,
  calendarDate,
  type RollResponse,
  rollDayQuery,
  rollDayResponse,
  rollMarkRequest,
  rollResponse,
} from '@tumble/contracts/roll';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { requireAuth } from '../../platform/auth.ts';
import { parseForm } from '../../platform/forms.ts';
import { renderPdf, sendPdf } from '../../platform/pdf.ts';
import { defineReport, type ReportRow, reportRoutes } from '../../platform/reports/report.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { companyToday, dayRolls, markRoll, rollDay, rollOf } from './roll.service.ts';

const tags = ['classes'];
const sessionParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

const KIND_LABELS = { enrolled: 'Enrolled', trial: 'Trial', makeup: 'Makeup', casual: 'Casual' } as const;
const MARK_LABELS = { present: 'Present', absent: 'Absent', late: 'Late', excused: 'Excused' } as const;

const sessionTitle = ({ session }: RollResponse) =>
  `${session.start_time}–${session.end_time} ${session.class_name}`;

/** The date a report was asked for, or the company's today. */
const reportDate = async (db: Db, tenant: Tenant, date: string | number | undefined) =>
  typeof date === 'string' && date ? date : companyToday(db, tenant);

/**
 * SPEC.md reports/daily-roll: every class session of a day with its children and their marks, as a
 * table, a CSV and a printable PDF. Staff only: a coach sees their own sessions on the roll screen.
 */
export const dailyRollReport = defineReport({
  name: 'daily-roll',
  title: 'Daily roll',
  permission: 'classes.write',
  filters: [{ name: 'date', label: 'Date', type: 'date' }],
  tables: {
    sessions: {
      label: 'Sessions',
      columns: [
        { name: 'session', label: 'Session', type: 'text' },
        { name: 'room', label: 'Room', type: 'text' },
        { name: 'coach', label: 'Coach', type: 'text' },
        { name: 'expected', label: 'Expected', type: 'number' },
        { name: 'present', label: 'Present', type: 'number' },
        { name: 'late', label: 'Late', type: 'number' },
        { name: 'absent', label: 'Absent', type: 'number' },
        { name: 'excused', label: 'Excused', type: 'number' },
        { name: 'unmarked', label: 'Not marked', type: 'number' },
      ],
      rows: async ({ db, tenant, filters }) => {
        const rolls = await dayRolls(db, tenant, await reportDate(db, tenant, filters.date));
        return rolls.map((roll): ReportRow => {
          const { session, children } = roll;
          const count = (status: string | null) =>
            children.filter((c) => (c.mark?.status ?? null) === status).length;
          return {
            session:
              session.status === 'cancelled' ? `${sessionTitle(roll)} (cancelled)` : sessionTitle(roll),
            room: session.room,
            coach: session.coach,
            expected: children.length,
            present: count('present'),
            late: count('late'),
            absent: count('absent'),
            excused: count('excused'),
            unmarked: count(null),
          };
        });
      },
    },
    children: {
      label: 'Children',
      columns: [
        { name: 'session', label: 'Session', type: 'text' },
        { name: 'child', label: 'Child', type: 'text' },
        { name: 'age', label: 'Age', type: 'text' },
        { name: 'kind', label: 'Kind', type: 'text' },
        { name: 'photo_consent', label: 'Photo consent', type: 'text' },
        { name: 'medical_notes', label: 'Medical notes', type: 'text' },
        { name: 'mark', label: 'Mark', type: 'text' },
        { name: 'note', label: 'Note', type: 'text' },
      ],
      rows: async ({ db, tenant, filters }) => {
        const rolls = await dayRolls(db, tenant, await reportDate(db, tenant, filters.date));
        return rolls.flatMap((roll) =>
          roll.children.map(
            (child): ReportRow => ({
              session: sessionTitle(roll),
              child: `${child.first_name} ${child.last_name}`,
              age: ageText(child.age),
              kind: KIND_LABELS[child.kind],
              photo_consent: child.photo_consent ? 'Yes' : 'No',
              medical_notes: child.medical_notes,
              mark: child.mark ? MARK_LABELS[child.mark.status] : '',
              note: child.mark?.note ?? null,
            }),
          ),
        );
      },
    },
  },
});

/** The daily roll printed: a section per session, a line per child with the flags a coach needs. */
export async function dailyRollPdf(db: Db, tenant: Tenant, date: string): Promise<Buffer> {
  const [company, rolls] = await Promise.all([companyOf(db, tenant), dayRolls(db, tenant, date)]);
  return renderPdf({
    title: `Daily roll ${displayDate(date)}`,
    subtitle: company.name,
    sections:
      rolls.length === 0
        ? [{ text: 'No class sessions on this day.' }]
        : rolls.map((roll) => ({
            heading: [
              sessionTitle(roll),
              roll.session.room,
              roll.session.coach,
              roll.session.status === 'cancelled' ? 'CANCELLED' : null,
            ]
              .filter(Boolean)
              .join(' · '),
            ...(roll.children.length === 0
              ? { text: 'No children expected.' }
              : {
                  rows: roll.children.map((child): [string, string] => [
                    `${child.first_name} ${child.last_name} (${ageText(child.age)}, ${KIND_LABELS[child.kind].toLowerCase()})`,
                    [
                      child.mark
                        ? MARK_LABELS[child.mark.status]
                        : '[ ] present  [ ] absent  [ ] late  [ ] excused',
                      child.mark?.note ? `note: ${child.mark.note}` : null,
                      child.photo_consent ? null : 'NO PHOTOS',
                      child.medical_notes ? `medical: ${child.medical_notes}` : null,
                    ]
                      .filter(Boolean)
                      .join(' · '),
                  ]),
                }),
          })),
  });
}

/** The daily roll: the day's sessions, one session's roll, one tap; and its report (JSON, CSV, PDF). */
export const rollRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/api/v1/admin/roll',
    {
      schema: { tags, querystring: rollDayQuery, response: { 200: rollDayResponse } },
      config: { access: 'roll.mark' },
    },
    async (request) => rollDay(db(), requireAuth(request), request.query.date),
  );

  app.get(
    '/api/v1/admin/roll/:id',
    {
      schema: { tags, params: sessionParams, response: { 200: rollResponse, 404: errorResponse } },
      config: { access: 'roll.mark' },
    },
    async (request) => rollOf(db(), requireAuth(request), request.params.id),
  );

  app.post(
    '/api/v1/admin/roll/:id/marks',
    {
      schema: {
        tags,
        params: sessionParams,
        body: z.record(z.string(), z.unknown()),
        response: { 200: formResponse, 404: errorResponse },
      },
      config: { access: 'roll.mark' },
    },
    async (request) => {
      const auth = requireAuth(request);
      const form = parseForm(rollMarkRequest, request.body);
      if (!form.ok) {
        // Another company's (or coach's) session is not found, whatever the body says.
        await rollOf(db(), auth, request.params.id);
        return form.response;
      }
      return markRoll(db(), auth, request.params.id, form.data);
    },
  );

  app.get(
    '/api/v1/admin/reports/daily-roll/pdf',
    {
      schema: { tags: ['reports'], querystring: z.object({ date: calendarDate.optional() }) },
      config: { access: dailyRollReport.permission },
    },
    async (request, reply) => {
      const { tenant } = requireAuth(request);
      const date = await reportDate(db(), tenant, request.query.date);
      return sendPdf(reply, await dailyRollPdf(db(), tenant, date), `daily-roll-${date}.pdf`);
    },
  );

  await app.register(reportRoutes([dailyRollReport]));
};
