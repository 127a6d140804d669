import {
  heldPlacesResponse,
  holdQuery,
  joinWaitlistRequest,
  joinWaitlistResponse,
  releaseHoldRequest,
  releaseHoldResponse,
} from '@tumble/contracts/class-waitlist';
import { errorResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicTenant, requireAuth } from '../../platform/auth.ts';
import { joinFromForm } from './class-waitlist.service.ts';
import { heldPlaces, releaseHold } from './holds.service.ts';

const tags = ['registration'];
const authhashQuery = z.object({ authhash: z.string().max(200).default('') });
const errors = { 400: errorResponse, 404: errorResponse, 409: errorResponse };

/** The class waitlist of the registration page, and the page where a parent takes up a held place. */
export const classWaitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/registration/waitlist',
    {
      schema: {
        tags,
        querystring: authhashQuery,
        body: joinWaitlistRequest,
        response: { 200: joinWaitlistResponse, ...errors },
      },
      config: { access: 'parent.self' },
    },
    async (request) => {
      const auth = requireAuth(request);
      const tenant = await publicTenant(app, request, request.query.authhash);
      return joinFromForm(app.deps, tenant, auth.userId, request.body);
    },
  );

  app.get(
    '/api/v1/registration/holds',
    {
      schema: { tags, querystring: holdQuery, response: { 200: heldPlacesResponse, ...errors } },
      config: { access: 'parent.self' },
    },
    async (request) => {
      const auth = requireAuth(request);
      const tenant = await publicTenant(app, request, request.query.authhash);
      return heldPlaces(app.deps, tenant, request.query.token, auth.userId);
    },
  );

  app.post(
    '/api/v1/registration/holds/release',
    {
      schema: {
        tags,
        querystring: authhashQuery,
        body: releaseHoldRequest,
        response: { 200: releaseHoldResponse, ...errors },
      },
      config: { access: 'parent.self' },
    },
    async (request) => {
      const auth = requireAuth(request);
      const tenant = await publicTenant(app, request, request.query.authhash);
      await releaseHold(app.deps, tenant, request.body.token, auth.userId);
      return { message: 'Thank you: the place has been released for the next family.' };
    },
  );
};
