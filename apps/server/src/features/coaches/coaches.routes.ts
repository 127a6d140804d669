import { CHECK_WARNING_DAYS, checksDueList, coverAssign, coverList } from '@tumble/contracts/coaches';
import { formResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { parseForm } from '../../platform/forms.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { assignSubstitute, sessionsNeedingCover } from '../classes/cover.service.ts';
import { checksDue } from './coaches.service.ts';

const tags = ['coaches'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const formBody = z.record(z.string(), z.unknown());

/** Cover for coaches on leave (/admin/cover) and the dashboard's expiring checks. */
export const coachRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/api/v1/admin/cover',
    { schema: { tags, response: { 200: coverList } }, config: { access: 'classes.read' } },
    async (request) => {
      const { tenant } = requireAuth(request);
      const today = todayIn((await companyOf(db(), tenant)).timeZone);
      const rows = await sessionsNeedingCover(db(), tenant, today);
      return {
        data: rows.map((r) => ({
          session_id: r.sessionId,
          term_class_id: r.termClassId,
          class_name: r.className,
          date: r.date,
          start_time: r.startTime,
          duration_minutes: r.durationMinutes,
          coach_id: r.coachId,
          coach_name: r.coachName,
          leave_start: r.leave.startDate,
          leave_end: r.leave.endDate,
          leave_reason: r.leave.reason,
        })),
      };
    },
  );

  app.post(
    '/api/v1/admin/cover/:id',
    {
      schema: { tags, params: idParams, body: formBody, response: { 200: formResponse } },
      config: { access: 'classes.write' },
    },
    async (request) => {
      const { tenant } = requireAuth(request);
      const form = parseForm(coverAssign, request.body);
      if (!form.ok) return form.response;
      return assignSubstitute(db(), tenant, request.params.id, form.data.coach_id);
    },
  );

  app.get(
    '/api/v1/admin/coach-checks',
    { schema: { tags, response: { 200: checksDueList } }, config: { access: 'coaches.read' } },
    async (request) => {
      const { tenant } = requireAuth(request);
      const today = todayIn((await companyOf(db(), tenant)).timeZone);
      const rows = await checksDue(db(), tenant, today, addDays(today, CHECK_WARNING_DAYS));
      return {
        data: rows.map((r) => ({
          coach_id: r.coachId,
          name: r.name,
          wwcc_number: r.wwccNumber,
          expires_on: r.expiresOn,
          expired: r.expired,
        })),
      };
    },
  );
};
