import { checkoutResponse } from '@tumble/contracts/booking';
import { errorResponse, formResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import {
  calendarResponse,
  GUEST_ROWS,
  partyCheckoutRequest,
  slotCapacityResponse,
} from '@tumble/contracts/party';
import { formDefinition } from '@tumble/contracts/resources';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicTenant, requireAuth } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { formErrors } from '../../platform/forms.ts';
import { browserOrigin } from '../../platform/payments/origin.ts';
import {
  checkoutParty,
  guestForm,
  partyCalendar,
  partyPaymentTerms,
  saveGuests,
  slotCapacity,
} from './party.service.ts';

const tags = ['birthday parties'];
const authhash = z.string().max(200).default('');

async function partyTenant(app: FastifyInstance, request: FastifyRequest, hash: string) {
  try {
    return await publicTenant(app, request, hash || undefined);
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError(messages.somethingWrongCalendar);
    throw error;
  }
}

export const partyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/birthday-party/booking/load-calendar',
    {
      schema: {
        tags,
        querystring: z.object({ authhash, year: z.coerce.number().int().min(2000).max(2200) }),
        response: { 200: calendarResponse },
      },
      config: { access: 'public' },
    },
    async (request) => {
      const days = await partyCalendar(
        app.deps,
        await partyTenant(app, request, request.query.authhash),
        request.query.year,
      );
      // SPEC.md point 3: the calendar is a JSON string keyed by date.
      return { calendar: JSON.stringify(days) };
    },
  );

  app.get(
    '/api/v1/birthday-party/booking/slot-capacity',
    {
      schema: {
        tags,
        querystring: z.object({ authhash, date: z.string().max(10) }),
        response: { 200: slotCapacityResponse, 400: errorResponse },
      },
      config: { access: 'public' },
    },
    async (request) =>
      slotCapacity(app.deps, await partyTenant(app, request, request.query.authhash), request.query.date),
  );

  app.get(
    '/api/v1/birthday-party/payment-terms',
    {
      schema: {
        tags,
        querystring: z.object({ authhash }),
        response: { 200: z.object({ payment_terms: z.string() }) },
      },
      config: { access: 'public' },
    },
    async (request) => partyPaymentTerms(app.deps, await partyTenant(app, request, request.query.authhash)),
  );

  app.post(
    '/api/v1/birthday-party/booking/checkout',
    {
      schema: {
        tags,
        querystring: z.object({ authhash }),
        body: z.record(z.string(), z.unknown()),
        response: { 200: checkoutResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
      config: { access: 'parent.self' },
    },
    async (request, reply) => {
      const parsed = partyCheckoutRequest.safeParse(request.body);
      if (!parsed.success) {
        const first = formErrors(parsed.error).error?.element[0];
        return reply.code(400).send({ message: first?.messages[0] ?? messages.checkoutFailed });
      }
      const tenant = await partyTenant(app, request, request.query.authhash);
      return checkoutParty(
        app.deps,
        tenant,
        requireAuth(request),
        parsed.data,
        browserOrigin(app.deps.config, request),
      );
    },
  );

  // SPEC.md point 7 names GET /birthday-party/update-guest; it lives under /api/v1 because the same
  // path without it is the SPA page (/birthday-party/update-guest/?id&authhash).
  const guestQuery = z.object({
    id: z.string().min(1).max(40),
    authhash,
    count: z.coerce.number().int().min(1).max(GUEST_ROWS).default(GUEST_ROWS),
  });
  app.get(
    '/api/v1/birthday-party/update-guest',
    {
      schema: { tags, querystring: guestQuery, response: { 200: formDefinition, 404: errorResponse } },
      config: { access: 'parent.self' },
    },
    async (request) => {
      await partyTenant(app, request, request.query.authhash);
      return guestForm(app.deps, requireAuth(request), request.query.id, request.query.count);
    },
  );
  app.post(
    '/api/v1/birthday-party/update-guest',
    {
      schema: {
        tags,
        querystring: guestQuery,
        body: z.record(z.string(), z.unknown()),
        response: { 200: formResponse, 404: errorResponse },
      },
      config: { access: 'parent.self' },
    },
    async (request) => {
      await partyTenant(app, request, request.query.authhash);
      return saveGuests(app.deps, requireAuth(request), request.query.id, request.body);
    },
  );
};
