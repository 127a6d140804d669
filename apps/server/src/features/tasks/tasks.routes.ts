import { errorResponse, formResponse } from '@tumble/contracts/http';
import {
  familyTasksResponse,
  newTaskRequest,
  taskOptionsResponse,
  tasksQuery,
  tasksResponse,
} from '@tumble/contracts/tasks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { parseForm } from '../../platform/forms.ts';
import {
  completeFamilyTask,
  completeTask,
  createTask,
  familyTasks,
  listTasks,
  taskOptions,
} from './tasks.service.ts';

const tags = ['tasks'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const staff = { access: 'classes.write' } as const;
const parent = { access: 'parent.self' } as const;

/** Staff tasks (/admin/tasks) and the family's tasks (SPEC students/tasks). */
export const taskRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/api/v1/admin/tasks',
    { schema: { tags, querystring: tasksQuery, response: { 200: tasksResponse } }, config: staff },
    async (request) => listTasks(db(), requireAuth(request), request.query.filter),
  );

  app.get(
    '/api/v1/admin/tasks/options',
    { schema: { tags, response: { 200: taskOptionsResponse } }, config: staff },
    async (request) => taskOptions(db(), requireAuth(request).tenant),
  );

  app.post(
    '/api/v1/admin/tasks',
    {
      schema: {
        tags,
        body: z.record(z.string(), z.unknown()),
        response: { 200: formResponse, 404: errorResponse },
      },
      config: staff,
    },
    async (request) => {
      const form = parseForm(newTaskRequest, request.body);
      if (!form.ok) return form.response;
      return createTask(db(), requireAuth(request), form.data);
    },
  );

  app.post(
    '/api/v1/admin/tasks/:id/done',
    { schema: { tags, params: idParams }, config: staff },
    async (request, reply) => {
      await completeTask(db(), requireAuth(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v1/students/tasks',
    { schema: { tags, response: { 200: familyTasksResponse } }, config: parent },
    async (request) => ({ tasks: await familyTasks(db(), requireAuth(request)) }),
  );

  app.post(
    '/api/v1/students/tasks/:id/done',
    { schema: { tags, params: idParams }, config: parent },
    async (request, reply) => {
      await completeFamilyTask(db(), requireAuth(request), request.params.id);
      return reply.code(204).send();
    },
  );
};
