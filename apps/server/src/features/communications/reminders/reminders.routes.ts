import { errorResponse, formResponse } from '@tumble/contracts/http';
import { reminderRulesResponse } from '@tumble/contracts/reminders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../../platform/auth.ts';
import { reminderRulesOf, saveReminderRule } from './reminders.service.ts';

const tags = ['reminder-emails'];

/** Reminder emails (SPEC reminder-emails): the rules and the last reminders sent; save one rule. */
export const reminderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/reminder-emails',
    { schema: { tags, response: { 200: reminderRulesResponse } }, config: { access: 'settings.read' } },
    async (request) => reminderRulesOf(app.deps, requireAuth(request).tenant),
  );

  app.post(
    '/api/v1/admin/reminder-emails',
    {
      schema: {
        tags,
        body: z.record(z.string(), z.unknown()),
        response: { 200: formResponse, 404: errorResponse },
      },
      config: { access: 'settings.write' },
    },
    async (request) => saveReminderRule(app.deps, requireAuth(request), request.body),
  );
};
