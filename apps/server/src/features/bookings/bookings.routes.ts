import {
  bookingPageResponse,
  bookingQuery,
  chargesResponse,
  checkoutResponse,
  eventCheckoutRequest,
  invitationResponse,
  QUANTITY_MAX,
  sessionsResponse,
} from '@tumble/contracts/booking';
import { errorResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicTenant, requireAuth } from '../../platform/auth.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { formErrors } from '../../platform/forms.ts';
import { browserOrigin } from '../../platform/payments/origin.ts';
import { noEventData } from '../events/events.service.ts';
import { partyCharges } from '../parties/party.service.ts';
import { bookingPage, eventPaymentTerms, sessionAvailability } from './booking.service.ts';
import { checkoutEvent, eventCharges } from './checkout.service.ts';
import { acceptInvitation, checkInvitation, declineInvitation } from './waitlist.service.ts';

const tags = ['booking'];

/** The company of a public booking call; a bad authhash is 'No event data available.' like a bad e. */
async function bookingTenant(app: FastifyInstance, request: FastifyRequest, authhash: string) {
  try {
    return await publicTenant(app, request, authhash || undefined);
  } catch (error) {
    if (error instanceof NotFoundError) throw noEventData();
    throw error;
  }
}

/**
 * SPEC.md point 7 sends `booked` repeated and `students[n][insurance_type]`, `students[n][insurance_ids][]`:
 * bracket keys that the default query parser leaves flat, so they are read here.
 */
export function parseChargesQuery(rawUrl: string) {
  const params = new URLSearchParams(rawUrl.split('?')[1] ?? '');
  const students: { insurance_type?: 'daily_insurance' | 'full_insurance'; insurance_ids?: number[] }[] = [];
  const booked: string[] = [];
  for (const [key, value] of params) {
    if (key === 'booked' || key === 'booked[]') booked.push(...value.split(',').filter(Boolean));
    const match = /^students\[(\d{1,2})\]\[(insurance_type|insurance_ids)\](\[\d*\])?$/.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    if (index >= QUANTITY_MAX) throw new BadRequestError('Too many children.');
    students[index] = students[index] ?? {};
    const student = students[index]!;
    if (match[2] === 'insurance_type') {
      if (value !== 'daily_insurance' && value !== 'full_insurance')
        throw new BadRequestError(messages.selectInsurance);
      student.insurance_type = value;
    } else {
      const id = Number(value);
      if (!Number.isInteger(id) || id <= 0) throw new BadRequestError(messages.selectInsurance);
      student.insurance_ids = [...(student.insurance_ids ?? []), id];
    }
  }
  return { booked, students: Array.from(students, (s) => s ?? {}) };
}

export const bookingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/booking',
    {
      schema: { tags, querystring: bookingQuery, response: { 200: bookingPageResponse, 404: errorResponse } },
      config: { access: 'public' },
    },
    async (request) =>
      bookingPage(app.deps, await bookingTenant(app, request, request.query.authhash), request.query.e),
  );

  app.get(
    '/api/v1/booking/sessions',
    {
      schema: { tags, querystring: bookingQuery, response: { 200: sessionsResponse, 404: errorResponse } },
      config: { access: 'public' },
    },
    async (request) =>
      sessionAvailability(
        app.deps,
        await bookingTenant(app, request, request.query.authhash),
        request.query.e,
        request.auth?.role === 'student' ? request.auth.userId : null,
      ),
  );

  app.get(
    '/api/v1/booking/payment-terms',
    {
      schema: {
        tags,
        querystring: z.object({
          event_id: z.coerce.number().int().positive().max(2_147_483_647),
          authhash: z.string().max(200).default(''),
        }),
        response: { 200: z.object({ content: z.string() }) },
      },
      config: { access: 'public' },
    },
    async (request) =>
      eventPaymentTerms(
        app.deps,
        await bookingTenant(app, request, request.query.authhash),
        request.query.event_id,
      ),
  );

  app.get(
    '/api/v1/calculate-charges-summary',
    {
      schema: {
        tags,
        querystring: z
          .object({
            authhash: z.string().max(200).default(''),
            type_of_registration: z.enum(['event', 'party']),
            event_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
            date: z.string().max(10).optional(),
            quantity: z.coerce.number().int().min(1).max(500).default(1),
            coupon_code: z.string().trim().max(40).default(''),
            nsw_coupon_code: z.string().trim().max(40).default(''),
          })
          .loose(),
        response: { 200: chargesResponse, 400: errorResponse },
      },
      config: { access: 'public' },
    },
    async (request) => {
      const q = request.query;
      const tenant = await bookingTenant(app, request, q.authhash);
      const parentId = request.auth?.role === 'student' ? request.auth.userId : null;
      if (q.type_of_registration === 'party') {
        if (!q.date) throw new BadRequestError('Please choose a date.');
        return partyCharges(app.deps, tenant, parentId, {
          date: q.date,
          quantity: q.quantity,
          couponCode: q.coupon_code,
          nswCode: q.nsw_coupon_code,
        });
      }
      if (!q.event_id) throw new BadRequestError('Please choose an event.');
      if (q.quantity > QUANTITY_MAX)
        throw new BadRequestError(`Please choose between 1 and ${QUANTITY_MAX} places.`);
      const { booked, students } = parseChargesQuery(request.url);
      return eventCharges(app.deps, tenant, parentId, {
        eventId: q.event_id,
        quantity: q.quantity,
        booked,
        couponCode: q.coupon_code,
        nswCode: q.nsw_coupon_code,
        students,
      });
    },
  );

  app.post(
    '/api/v1/booking/checkout',
    {
      schema: {
        tags,
        querystring: z.object({ authhash: z.string().max(200).default('') }),
        body: z.record(z.string(), z.unknown()),
        response: { 200: checkoutResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
      config: { access: 'parent.self' },
    },
    async (request, reply) => {
      const parsed = eventCheckoutRequest.safeParse(request.body);
      if (!parsed.success) {
        const first = formErrors(parsed.error).error?.element[0];
        return reply.code(400).send({ message: first?.messages[0] ?? messages.checkoutFailed });
      }
      const tenant = await bookingTenant(app, request, request.query.authhash);
      return checkoutEvent(
        app.deps,
        tenant,
        requireAuth(request),
        parsed.data,
        browserOrigin(app.deps.config, request),
      );
    },
  );

  const invitationQuery = z.object({
    authhash: z.string().max(200).default(''),
    w: z.string().max(100).default(''),
    e: z.string().max(200).default(''),
    b: z.string().max(20).default(''),
  });
  const invitationRoute = {
    schema: { tags: ['waitlist'], querystring: invitationQuery, response: { 200: invitationResponse } },
    config: { access: 'public' as const },
  };
  app.get('/api/v1/events/wait-list/invitation/check', invitationRoute, async (request) => {
    const q = request.query;
    return checkInvitation(app.deps, await bookingTenant(app, request, q.authhash), q.w, q.b);
  });
  app.get('/api/v1/events/wait-list/invitation/accept', invitationRoute, async (request) => {
    const q = request.query;
    return acceptInvitation(app.deps, await bookingTenant(app, request, q.authhash), q);
  });
  app.get('/api/v1/events/wait-list/invitation/decline', invitationRoute, async (request) => {
    const q = request.query;
    return declineInvitation(app.deps, await bookingTenant(app, request, q.authhash), q.w, q.b);
  });
};
