import { classCopy, sessionGeneration, termGeneration } from '@tumble/contracts/class-sessions';
import { errorResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import {
  applyClassSessions,
  applyTermSessions,
  copyPreviousTerm,
  previewClassSessions,
  previewTermSessions,
} from './sessions.service.ts';

const params = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const errors = { 400: errorResponse, 404: errorResponse, 409: errorResponse };

/**
 * Generating class sessions and copying a term's classes: each a preview (GET) and the same
 * difference applied (POST) in one transaction.
 */
export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const tags = ['admin: class sessions'];
  const read = { access: 'classes.read' } as const;
  const write = { access: 'classes.write' } as const;

  app.get(
    '/api/v1/admin/term-classes/:id/generate',
    { schema: { tags, params, response: { 200: sessionGeneration, ...errors } }, config: read },
    async (request) => previewClassSessions(db, requireAuth(request).tenant, request.params.id),
  );
  app.post(
    '/api/v1/admin/term-classes/:id/generate',
    { schema: { tags, params, response: { 200: sessionGeneration, ...errors } }, config: write },
    async (request) => applyClassSessions(db, requireAuth(request).tenant, request.params.id),
  );
  app.get(
    '/api/v1/admin/terms/:id/generate',
    { schema: { tags, params, response: { 200: termGeneration, ...errors } }, config: read },
    async (request) => previewTermSessions(db, requireAuth(request).tenant, request.params.id),
  );
  app.post(
    '/api/v1/admin/terms/:id/generate',
    { schema: { tags, params, response: { 200: termGeneration, ...errors } }, config: write },
    async (request) => applyTermSessions(db, requireAuth(request).tenant, request.params.id),
  );
  app.get(
    '/api/v1/admin/terms/:id/copy-classes',
    { schema: { tags, params, response: { 200: classCopy, ...errors } }, config: read },
    async (request) => copyPreviousTerm(db, requireAuth(request).tenant, request.params.id, false),
  );
  app.post(
    '/api/v1/admin/terms/:id/copy-classes',
    { schema: { tags, params, response: { 200: classCopy, ...errors } }, config: write },
    async (request) => copyPreviousTerm(db, requireAuth(request).tenant, request.params.id, true),
  );
};
