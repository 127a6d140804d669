import { chargesResponse, checkoutResponse } from '@tumble/contracts/booking';
import { errorResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import {
  availableLessonsResponse,
  myPrivateLessonsResponse,
  privateLessonChargesQuery,
  privateLessonCheckoutRequest,
  staffCancelRequest,
  staffPrivateLessonsQuery,
  staffPrivateLessonsResponse,
} from '@tumble/contracts/private-lessons';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { formErrors } from '../../platform/forms.ts';
import { browserOrigin } from '../../platform/payments/origin.ts';
import {
  checkoutPrivateLesson,
  privateLessonCharges,
  privateLessonPaymentTerms,
} from './private-lesson-sale.ts';
import {
  availableLessons,
  cancelMyPrivateLesson,
  myPrivateLessons,
  staffCancelPrivateLesson,
  staffPrivateLessons,
} from './private-lessons.service.ts';

const tags = ['private lessons'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const body = z.record(z.string(), z.unknown());
const done = z.object({ valid: z.literal(true), message: z.string() });
const parent = { access: 'parent.self' } as const;

/** The first field message of a refused body (the pages show one line). */
const firstMessage = (error: z.ZodError) =>
  formErrors(error).error?.element[0]?.messages[0] ?? messages.checkoutFailed;

/** Private lessons: the parent books, pays and cancels (/admin/students/private-classes); staff list and cancel. */
export const privateLessonRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/students/private-lessons/available',
    {
      schema: {
        tags,
        querystring: z.object({ coach_id: z.coerce.number().int().positive().max(2_147_483_647).optional() }),
        response: { 200: availableLessonsResponse },
      },
      config: parent,
    },
    async (request) => availableLessons(app.deps, requireAuth(request).tenant, request.query.coach_id),
  );

  app.get(
    '/api/v1/students/private-lessons/charges',
    {
      schema: {
        tags,
        querystring: privateLessonChargesQuery,
        response: { 200: chargesResponse, 404: errorResponse },
      },
      config: parent,
    },
    async (request) => {
      const auth = requireAuth(request);
      return privateLessonCharges(app.deps, auth.tenant, auth.userId, {
        slotId: request.query.slot_id,
        date: request.query.date,
        couponCode: request.query.coupon_code,
      });
    },
  );

  app.get(
    '/api/v1/students/private-lessons/payment-terms',
    { schema: { tags, response: { 200: z.object({ payment_terms: z.string() }) } }, config: parent },
    async (request) => privateLessonPaymentTerms(app.deps, requireAuth(request).tenant),
  );

  app.post(
    '/api/v1/students/private-lessons/checkout',
    {
      schema: {
        tags,
        body,
        response: { 200: checkoutResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
      config: parent,
    },
    async (request, reply) => {
      const parsed = privateLessonCheckoutRequest.safeParse(request.body);
      if (!parsed.success) return reply.code(400).send({ message: firstMessage(parsed.error) });
      const auth = requireAuth(request);
      return checkoutPrivateLesson(
        app.deps,
        auth.tenant,
        auth,
        parsed.data,
        browserOrigin(app.deps.config, request),
      );
    },
  );

  app.get(
    '/api/v1/students/private-lessons',
    { schema: { tags, response: { 200: myPrivateLessonsResponse } }, config: parent },
    async (request) => {
      const auth = requireAuth(request);
      return myPrivateLessons(app.deps, auth.tenant, auth.userId);
    },
  );

  app.post(
    '/api/v1/students/private-lessons/:id/cancel',
    {
      schema: { tags, params: idParams, response: { 200: done, 400: errorResponse, 404: errorResponse } },
      config: parent,
    },
    async (request) => {
      const auth = requireAuth(request);
      return cancelMyPrivateLesson(app.deps, auth.tenant, auth.userId, request.params.id);
    },
  );

  app.get(
    '/api/v1/admin/private-lessons',
    {
      schema: { tags, querystring: staffPrivateLessonsQuery, response: { 200: staffPrivateLessonsResponse } },
      config: { access: 'bookings.read' },
    },
    async (request) =>
      staffPrivateLessons(app.deps, requireAuth(request).tenant, {
        coachId: request.query.coach_id,
        from: request.query.from,
        to: request.query.to,
      }),
  );

  app.post(
    '/api/v1/admin/private-lessons/:id/cancel',
    {
      schema: {
        tags,
        params: idParams,
        body,
        response: { 200: done, 400: errorResponse, 404: errorResponse },
      },
      config: { access: 'bookings.write' },
    },
    async (request, reply) => {
      const parsed = staffCancelRequest.safeParse(request.body);
      if (!parsed.success) return reply.code(400).send({ message: firstMessage(parsed.error) });
      return staffCancelPrivateLesson(
        app.deps,
        requireAuth(request).tenant,
        request.params.id,
        parsed.data.refund_choice,
      );
    },
  );
};
