import { errorResponse } from '@tumble/contracts/http';
import { timetableQuery, timetableResponse } from '@tumble/contracts/timetable';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth.ts';
import { timetableWeek } from './timetable.service.ts';

/** The staff timetable: a week of class sessions, events and parties by room or by coach. */
export const timetableRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.get(
    '/api/v1/admin/timetable',
    {
      schema: {
        tags: ['classes'],
        querystring: timetableQuery,
        response: { 200: timetableResponse, 400: errorResponse },
      },
      config: { access: 'classes.read' },
    },
    async (request) => timetableWeek(db, requireAuth(request).tenant, request.query),
  );
};
