import { checkoutResponse } from '@tumble/contracts/booking';
import { errorResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import {
  classFinderQuery,
  classFinderResponse,
  enrolmentCheckoutRequest,
  enrolmentPurchaseResponse,
  enrolmentQuoteRequest,
  enrolmentQuoteResponse,
  myEnrolmentsResponse,
  registrationFormResponse,
  registrationQuery,
} from '@tumble/contracts/registration';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicTenant, requireAuth } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { formErrors } from '../../platform/forms.ts';
import { browserOrigin } from '../../platform/payments/origin.ts';
import { enrolmentMessages } from './enrolment-sale.ts';
import {
  enrolmentCheckout,
  enrolmentConfirmation,
  enrolmentQuote,
  myEnrolments,
  registrationClasses,
  registrationForm,
} from './registration-page.service.ts';

const tags = ['registration'];
const authhashQuery = z.object({ authhash: z.string().max(200).default('') });

/** The company of a public registration call; a bad authhash reads as a form that is not there. */
async function registrationTenant(app: FastifyInstance, request: FastifyRequest, authhash: string) {
  try {
    return await publicTenant(app, request, authhash || undefined);
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError(enrolmentMessages.formNotFound);
    throw error;
  }
}

/** A body that fails the schema: 400 with the first field's message (the checkout's rule). */
function badBody(reply: FastifyReply, error: z.ZodError) {
  const first = formErrors(error).error?.element[0];
  return reply.code(400).send({ message: first?.messages[0] ?? messages.checkoutFailed });
}

/** The public registration page (issue 14) and the parent's enrolments. */
export const registrationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/registration/form',
    {
      schema: {
        tags,
        querystring: registrationQuery,
        response: { 200: registrationFormResponse, 404: errorResponse },
      },
      config: { access: 'public' },
    },
    async (request) =>
      registrationForm(
        app.deps,
        await registrationTenant(app, request, request.query.authhash),
        request.query.f,
      ),
  );

  app.get(
    '/api/v1/registration/classes',
    {
      schema: {
        tags,
        querystring: classFinderQuery,
        response: { 200: classFinderResponse, 404: errorResponse },
      },
      config: { access: 'public' },
    },
    async (request) =>
      registrationClasses(
        app.deps,
        await registrationTenant(app, request, request.query.authhash),
        request.query.f,
        request.query.dob ?? null,
      ),
  );

  app.post(
    '/api/v1/registration/quote',
    {
      schema: {
        tags,
        querystring: authhashQuery,
        body: z.record(z.string(), z.unknown()),
        response: { 200: enrolmentQuoteResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const parsed = enrolmentQuoteRequest.safeParse(request.body);
      if (!parsed.success) return badBody(reply, parsed.error);
      const tenant = await registrationTenant(app, request, request.query.authhash);
      const parentId =
        request.auth?.role === 'student' && request.auth.tenant.companyId === tenant.companyId
          ? request.auth.userId
          : null;
      return enrolmentQuote(app.deps, tenant, parentId, parsed.data);
    },
  );

  app.post(
    '/api/v1/registration/checkout',
    {
      schema: {
        tags,
        querystring: authhashQuery,
        body: z.record(z.string(), z.unknown()),
        response: { 200: checkoutResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
      config: { access: 'parent.self' },
    },
    async (request, reply) => {
      const parsed = enrolmentCheckoutRequest.safeParse(request.body);
      if (!parsed.success) return badBody(reply, parsed.error);
      const tenant = await registrationTenant(app, request, request.query.authhash);
      return enrolmentCheckout(
        app.deps,
        tenant,
        requireAuth(request),
        parsed.data,
        browserOrigin(app.deps.config, request),
      );
    },
  );

  app.get(
    '/api/v1/registration/purchase',
    {
      schema: {
        tags,
        querystring: authhashQuery.extend({ id: z.string().max(100).default('') }),
        response: { 200: enrolmentPurchaseResponse, 404: errorResponse },
      },
      config: { access: 'public' },
    },
    async (request) =>
      enrolmentConfirmation(
        app.deps,
        await registrationTenant(app, request, request.query.authhash),
        request.query.id,
      ),
  );

  app.get(
    '/api/v1/students/enrolments',
    {
      schema: { tags: ['students'], response: { 200: myEnrolmentsResponse } },
      config: { access: 'parent.self' },
    },
    async (request) => myEnrolments(app.deps, requireAuth(request)),
  );
};
