import { checkoutResponse } from '@tumble/contracts/booking';
import { errorResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import { invoiceCheckoutRequest, invoicePaymentResponse } from '@tumble/contracts/payments';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { formErrors } from '../../platform/forms.ts';
import { browserOrigin } from '../../platform/payments/origin.ts';
import { checkoutInvoice, invoicePayment } from './invoice-sale.ts';

const tags = ['invoice payment'];
const parent = { access: 'parent.self' } as const;

/** A parent pays their own invoice online (SPEC student/payment, /admin/student/payment?invoice=<id>). */
export const invoicePaymentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/students/invoice-payment',
    {
      schema: {
        tags,
        querystring: z.object({ invoice: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: invoicePaymentResponse, 404: errorResponse },
      },
      config: parent,
    },
    async (request) => invoicePayment(app.deps, requireAuth(request), request.query.invoice),
  );

  app.post(
    '/api/v1/students/invoice-payment/checkout',
    {
      schema: {
        tags,
        body: z.record(z.string(), z.unknown()),
        response: { 200: checkoutResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
      config: parent,
    },
    async (request, reply) => {
      const parsed = invoiceCheckoutRequest.safeParse(request.body);
      if (!parsed.success)
        return reply.code(400).send({
          message: formErrors(parsed.error).error?.element[0]?.messages[0] ?? messages.checkoutFailed,
        });
      return checkoutInvoice(
        app.deps,
        requireAuth(request),
        parsed.data,
        browserOrigin(app.deps.config, request),
      );
    },
  );
};
