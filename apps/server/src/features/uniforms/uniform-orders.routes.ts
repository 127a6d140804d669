import { chargesResponse, checkoutResponse } from '@tumble/contracts/booking';
import { errorResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import {
  myUniformOrdersResponse,
  staffUniformOrderRequest,
  staffUniformOrdersResponse,
  uniformChargesQuery,
  uniformCheckoutRequest,
} from '@tumble/contracts/uniform-orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { formErrors } from '../../platform/forms.ts';
import { browserOrigin } from '../../platform/payments/origin.ts';
import { checkoutUniformOrder, uniformCharges } from './uniform-order.sale.ts';
import {
  cancelOrder,
  collectOrder,
  createDeskOrder,
  myUniformOrders,
  staffUniformOrders,
} from './uniform-orders.service.ts';

const tags = ['uniform orders'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const body = z.record(z.string(), z.unknown());
const done = z.object({ message: z.string() });
const parent = { access: 'parent.self' } as const;
/** The front desk: the same staff who record payments (Families and Money pages). */
const desk = { access: 'bookings.write' } as const;
const refused = { 400: errorResponse, 404: errorResponse, 409: errorResponse };

/** The first field message of a refused body (the pages show one line). */
const firstMessage = (error: z.ZodError) =>
  formErrors(error).error?.element[0]?.messages[0] ?? messages.checkoutFailed;

/** Uniform orders: a parent orders and pays (/admin/students/uniforms); staff order, collect and cancel. */
export const uniformOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/students/uniform-orders',
    { schema: { tags, response: { 200: myUniformOrdersResponse } }, config: parent },
    async (request) => {
      const auth = requireAuth(request);
      return myUniformOrders(app.deps.database.db, auth.tenant, auth.userId);
    },
  );

  app.get(
    '/api/v1/students/uniform-orders/charges',
    {
      schema: { tags, querystring: uniformChargesQuery, response: { 200: chargesResponse, ...refused } },
      config: parent,
    },
    async (request) => {
      const auth = requireAuth(request);
      return uniformCharges(app.deps, auth.tenant, auth.userId, request.query);
    },
  );

  app.post(
    '/api/v1/students/uniform-orders/checkout',
    { schema: { tags, body, response: { 200: checkoutResponse, ...refused } }, config: parent },
    async (request, reply) => {
      const parsed = uniformCheckoutRequest.safeParse(request.body);
      if (!parsed.success) return reply.code(400).send({ message: firstMessage(parsed.error) });
      const auth = requireAuth(request);
      return checkoutUniformOrder(
        app.deps,
        auth.tenant,
        auth,
        parsed.data,
        browserOrigin(app.deps.config, request),
      );
    },
  );

  app.get(
    '/api/v1/admin/uniform-orders',
    { schema: { tags, response: { 200: staffUniformOrdersResponse } }, config: desk },
    async (request) => staffUniformOrders(app.deps.database.db, requireAuth(request).tenant),
  );

  app.post(
    '/api/v1/admin/uniform-orders',
    {
      schema: { tags, body, response: { 200: z.object({ id: z.number() }), ...refused } },
      config: desk,
    },
    async (request, reply) => {
      const parsed = staffUniformOrderRequest.safeParse(request.body);
      if (!parsed.success) return reply.code(400).send({ message: firstMessage(parsed.error) });
      return createDeskOrder(app.deps, requireAuth(request), parsed.data);
    },
  );

  app.post(
    '/api/v1/admin/uniform-orders/:id/collect',
    { schema: { tags, params: idParams, response: { 200: done, ...refused } }, config: desk },
    async (request) => collectOrder(app.deps, requireAuth(request), request.params.id),
  );

  app.post(
    '/api/v1/admin/uniform-orders/:id/cancel',
    { schema: { tags, params: idParams, response: { 200: done, ...refused } }, config: desk },
    async (request) => cancelOrder(app.deps, requireAuth(request), request.params.id),
  );
};
