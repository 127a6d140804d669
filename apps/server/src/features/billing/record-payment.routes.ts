import { errorResponse } from '@tumble/contracts/http';
import {
  paymentFormError,
  recordPaymentOptionsQuery,
  recordPaymentOptions as recordPaymentOptionsResponse,
  recordPaymentRequest,
  recordPaymentResponse,
} from '@tumble/contracts/payments';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { formErrors } from '../../platform/forms.ts';
import { formatMoney } from '../../platform/money.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { PaymentFieldError, recordPayment, recordPaymentOptions } from './record-payment.service.ts';

const tags = ['payments'];
/**
 * Front-desk staff take party balances and cash at the counter, so recording a payment needs the
 * bookings' write permission (admins and staff), like cancelling a booking; coaches cannot.
 */
const access = { access: 'bookings.write' } as const;

/** A refused form: 400 with the first message and each field's messages (the page shows them on the fields). */
function refused(field: string, message: string) {
  return {
    message,
    valid: false,
    error: {
      html_message: 'Please correct the errors below.',
      element: [{ name: field, messages: [message] }],
    },
  };
}

/** Staff record a payment (/admin/payments/record). */
export const recordPaymentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/payments/record/options',
    {
      schema: {
        tags,
        querystring: recordPaymentOptionsQuery,
        response: { 200: recordPaymentOptionsResponse, 404: errorResponse },
      },
      config: access,
    },
    async (request) => recordPaymentOptions(app.deps, requireAuth(request).tenant, request.query),
  );

  app.post(
    '/api/v1/admin/payments/record',
    {
      schema: {
        tags,
        body: z.record(z.string(), z.unknown()),
        response: { 200: recordPaymentResponse, 400: paymentFormError, 404: errorResponse },
      },
      config: access,
    },
    async (request, reply) => {
      const parsed = recordPaymentRequest.safeParse(request.body);
      if (!parsed.success) {
        const form = formErrors(parsed.error);
        return reply.code(400).send({ message: form.error!.element[0]!.messages[0]!, ...form });
      }
      const auth = requireAuth(request);
      try {
        const recorded = await recordPayment(app.deps, auth, parsed.data);
        const { currency } = await companyOf(app.deps.database.db, auth.tenant);
        const money = (cents: number) => formatMoney(cents, currency);
        const paid = recorded.allocated.map((a) => `${money(a.amount)} on ${a.code}`).join(', ');
        const message = [
          `Payment of ${money(parsed.data.amount)} recorded.`,
          paid ? `Paid ${paid}.` : '',
          recorded.credit > 0 ? `${money(recorded.credit)} kept as the family's credit.` : '',
        ]
          .filter(Boolean)
          .join(' ');
        return {
          valid: true as const,
          payment_id: recorded.paymentId,
          allocated: recorded.allocated.map((a) => ({
            invoice_id: a.invoiceId,
            code: a.code,
            amount: a.amount,
          })),
          credit: recorded.credit,
          message,
        };
      } catch (error) {
        if (error instanceof PaymentFieldError)
          return reply.code(400).send(refused(error.field, error.message));
        throw error;
      }
    },
  );
};
