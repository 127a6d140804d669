import { errorResponse, formResponse } from '@tumble/contracts/http';
import { familyPaymentsResponse } from '@tumble/contracts/statement';
import {
  emailTaken,
  myBookingsResponse,
  myPartyBookingsResponse,
  myWaitlistResponse,
  myWaiversResponse,
  studentProfile,
} from '@tumble/contracts/students';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { parseForm } from '../../platform/forms.ts';
import { sendPdf } from '../../platform/pdf.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { profileOf, saveProfile } from '../accounts/profile.service.ts';
import { leaveWaitlist, parentWaitlist } from '../bookings/waitlist.service.ts';
import { signedWaiverPdf } from '../waivers/waiver.pdf.ts';
import { signedWaiverFor } from '../waivers/waiver.service.ts';
import { myBookings, myPartyBookings, myPayments, myWaivers, paymentReceipt } from './account.service.ts';

const tags = ['students'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const config = { access: 'parent.self' } as const;

/** The parent's account (role student): profile, bookings, party bookings, payments, waivers. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/api/v1/students/profile',
    { schema: { tags, response: { 200: studentProfile } }, config },
    async (request) => {
      const auth = requireAuth(request);
      const me = await profileOf(db, auth.tenant, auth.userId);
      if (!me) throw new NotFoundError();
      return { full_name: me.fullName, email: me.email, phone: me.phone ?? '' };
    },
  );
  app.post(
    '/api/v1/students/profile',
    {
      schema: { tags, body: z.record(z.string(), z.unknown()), response: { 200: formResponse } },
      config,
    },
    async (request) => {
      const auth = requireAuth(request);
      const parsed = parseForm(studentProfile, request.body);
      if (!parsed.ok) return parsed.response;
      const saved = await saveProfile(db, auth.tenant, auth.userId, {
        fullName: parsed.data.full_name,
        email: parsed.data.email,
        phone: parsed.data.phone || null,
      });
      if (!saved) {
        return {
          valid: false,
          error: { html_message: emailTaken, element: [{ name: 'email', messages: [emailTaken] }] },
        };
      }
      return { valid: true, info: { title: 'Profile saved', message: 'Your details have been saved.' } };
    },
  );

  app.get(
    '/api/v1/students/my-bookings',
    { schema: { tags, response: { 200: myBookingsResponse } }, config },
    async (request) => myBookings(app.deps, requireAuth(request)),
  );
  app.get(
    '/api/v1/students/my-waitlist',
    { schema: { tags, response: { 200: myWaitlistResponse } }, config },
    async (request) => {
      const auth = requireAuth(request);
      return parentWaitlist(app.deps, auth.tenant, auth.userId);
    },
  );
  app.post(
    '/api/v1/students/my-waitlist/:id/leave',
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: z.object({ valid: z.boolean() }), 404: errorResponse },
      },
      config,
    },
    async (request) => {
      const auth = requireAuth(request);
      return leaveWaitlist(app.deps, auth.tenant, auth.userId, request.params.id);
    },
  );
  app.get(
    '/api/v1/students/my-party-bookings',
    { schema: { tags, response: { 200: myPartyBookingsResponse } }, config },
    async (request) => myPartyBookings(app.deps, requireAuth(request)),
  );
  app.get(
    '/api/v1/students/payments',
    { schema: { tags, response: { 200: familyPaymentsResponse } }, config },
    async (request) => myPayments(app.deps, requireAuth(request)),
  );
  app.get(
    '/api/v1/students/payments/:id/receipt',
    { schema: { tags, params: idParams, response: { 404: errorResponse } }, config },
    async (request, reply) => {
      const pdf = await paymentReceipt(app.deps, requireAuth(request), request.params.id);
      return sendPdf(reply, pdf, `receipt-${request.params.id}.pdf`);
    },
  );
  app.get(
    '/api/v1/students/waivers',
    { schema: { tags, response: { 200: myWaiversResponse } }, config },
    async (request) => myWaivers(app.deps, requireAuth(request)),
  );
  app.get(
    '/api/v1/students/waivers/:id/pdf',
    { schema: { tags, params: idParams, response: { 404: errorResponse } }, config },
    async (request, reply) => {
      const auth = requireAuth(request);
      const [signed, company] = await Promise.all([
        signedWaiverFor(db, auth.tenant, request.params.id, auth.userId),
        companyOf(db, auth.tenant),
      ]);
      return sendPdf(reply, await signedWaiverPdf(signed, company), `waiver-${signed.id}.pdf`);
    },
  );
};
