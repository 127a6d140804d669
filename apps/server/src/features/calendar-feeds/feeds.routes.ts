import {
  createdFeedResponse,
  createFeedRequest,
  familyFeedResponse,
  staffFeedsResponse,
} from '@tumble/contracts/calendar-feeds';
import { errorResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { createFeed, familyFeed, feedByToken, revokeFeed, staffFeeds } from './feeds.service.ts';

const params = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const errors = { 400: errorResponse, 404: errorResponse };

/**
 * Calendar feeds (SPEC integrations/google): staff make the company's and each coach's feed, a
 * parent makes the family's, and calendars fetch `/feeds/<token>.ics` with no sign-in.
 */
export const calendarFeedRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { config } = app.deps;
  const tags = ['integrations: google'];

  app.get(
    '/api/v1/admin/integrations/google/feeds',
    { schema: { tags, response: { 200: staffFeedsResponse } }, config: { access: 'settings.read' } },
    async (request) => staffFeeds(db, requireAuth(request).tenant),
  );
  app.post(
    '/api/v1/admin/integrations/google/feeds',
    {
      schema: { tags, body: createFeedRequest, response: { 200: createdFeedResponse, ...errors } },
      config: { access: 'settings.write' },
    },
    async (request) => {
      const body = request.body;
      return createFeed(
        db,
        requireAuth(request).tenant,
        config,
        body.kind === 'coach' ? { kind: 'coach', coachId: body.coach_id } : { kind: 'company' },
      );
    },
  );
  app.delete(
    '/api/v1/admin/integrations/google/feeds/:id',
    { schema: { tags, params }, config: { access: 'settings.write' } },
    async (request, reply) => {
      await revokeFeed(db, requireAuth(request).tenant, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v1/students/calendar-feed',
    { schema: { tags, response: { 200: familyFeedResponse } }, config: { access: 'parent.self' } },
    async (request) => {
      const auth = requireAuth(request);
      return { feed: await familyFeed(db, auth.tenant, auth.userId) };
    },
  );
  // It takes nothing: a body with fields is a request for something else, refused before a feed is made.
  app.post(
    '/api/v1/students/calendar-feed',
    {
      schema: {
        tags,
        body: z.strictObject({}).nullish(),
        response: { 200: createdFeedResponse, 400: errorResponse },
      },
      config: { access: 'parent.self' },
    },
    async (request) => {
      const auth = requireAuth(request);
      return createFeed(db, auth.tenant, config, { kind: 'family', parentId: auth.userId });
    },
  );

  // The feed itself: public, named by its secret. Not found, revoked or malformed all answer the
  // same 404, so a guess learns nothing.
  app.get(
    '/feeds/:file',
    { schema: { hide: true, params: z.object({ file: z.string().max(200) }) }, config: { access: 'public' } },
    async (request, reply) => {
      const token = request.params.file.endsWith('.ics') ? request.params.file.slice(0, -4) : '';
      const feed = token ? await feedByToken(db, config, token) : null;
      if (!feed) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      reply
        .header('etag', feed.etag)
        .header('cache-control', 'private, max-age=300')
        .header('x-robots-tag', 'noindex');
      if (request.headers['if-none-match'] === feed.etag) return reply.code(304).send();
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="calendar.ics"')
        .send(feed.ics);
    },
  );
};
