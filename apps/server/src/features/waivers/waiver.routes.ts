import { errorResponse, formResponse } from '@tumble/contracts/http';
import {
  adminWaiverResendRequest,
  adminWaiverResendResponse,
  adminWaiverStatusQuery,
  adminWaiverStatusResponse,
  waiverAuthQuery,
  waiverCheckRequest,
  waiverCheckResponse,
  waiverChildInfoQuery,
  waiverChildInfo as waiverChildInfoSchema,
  waiverKinds,
  waiverMarkQuery,
  waiverMarkResponse,
  waiverMessages,
  waiverPageResponse,
  waiverPaths,
  waiverQuery,
} from '@tumble/contracts/waiver';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicTenant, requireAuth } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { sendPdf } from '../../platform/pdf.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { signedWaiverPdf } from './waiver.pdf.ts';
import {
  bookingWaiverStatus,
  checkWaiver,
  markWaiver,
  resendWaiverRequests,
  signedWaiverFor,
  submitWaiver,
  waiverChildInfo,
  waiverPage,
} from './waiver.service.ts';

const tags = ['waivers'];

/** The company of a waiver link; null for an unknown authhash (the page then says the link is invalid). */
async function waiverTenant(app: FastifyInstance, request: FastifyRequest, authhash: string) {
  try {
    return await publicTenant(app, request, authhash || undefined);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/**
 * The public waiver calls of SPEC.md point 7, once for event bookings and once for parties, and
 * the staff calls: a booking's waiver status, resending the request, and the signed PDF.
 */
export const waiverRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const invalidPage = {
    valid: false,
    message: waiverMessages.invalidLink,
    title: '',
    hash: '',
    waiver: null,
    people: [],
  };

  for (const kind of waiverKinds) {
    const base = waiverPaths[kind].api;
    app.get(
      base,
      {
        schema: { tags, querystring: waiverQuery, response: { 200: waiverPageResponse } },
        config: { access: 'public' },
      },
      async (request) => {
        const tenant = await waiverTenant(app, request, request.query.authhash);
        return tenant ? waiverPage(db, tenant, kind, request.query.id) : invalidPage;
      },
    );
    app.post(
      `${base}/check`,
      {
        schema: {
          tags,
          querystring: waiverAuthQuery,
          body: waiverCheckRequest,
          response: { 200: waiverCheckResponse },
        },
        config: { access: 'public' },
      },
      async (request) => {
        const tenant = await waiverTenant(app, request, request.query.authhash);
        if (!tenant) return { valid: false, message: waiverMessages.invalidLink, found: false, id: 0 };
        return checkWaiver(db, tenant, kind, request.body.id, request.body.child_id);
      },
    );
    app.get(
      `${base}/mark`,
      {
        schema: { tags, querystring: waiverMarkQuery, response: { 200: waiverMarkResponse } },
        config: { access: 'public' },
      },
      async (request) => {
        const tenant = await waiverTenant(app, request, request.query.authhash);
        if (!tenant) return { valid: false, message: waiverMessages.invalidLink };
        return markWaiver(db, tenant, kind, request.query);
      },
    );
    app.get(
      `${base}/child-info`,
      {
        schema: {
          tags,
          querystring: waiverChildInfoQuery,
          response: { 200: waiverChildInfoSchema, 404: errorResponse },
        },
        config: { access: 'public' },
      },
      async (request) => {
        const tenant = await waiverTenant(app, request, request.query.authhash);
        if (!tenant) throw new NotFoundError(waiverMessages.invalidLink);
        return waiverChildInfo(db, tenant, kind, request.query.id, request.query.child_id);
      },
    );
    app.post(
      base,
      {
        // The body is checked by the form's own schema so field errors come back as a form response.
        schema: {
          tags,
          querystring: waiverAuthQuery,
          body: z.record(z.string(), z.unknown()),
          response: { 200: formResponse },
        },
        config: { access: 'public' },
        // A drawn signature is a PNG of up to a few hundred kilobytes.
        bodyLimit: 1024 * 1024,
      },
      async (request) => {
        const tenant = await waiverTenant(app, request, request.query.authhash);
        if (!tenant)
          return { valid: false, error: { html_message: waiverMessages.invalidLink, element: [] } };
        return submitWaiver(db, tenant, kind, request.body, {
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? '',
        });
      },
    );
  }

  app.get(
    '/api/v1/admin/waivers/status',
    {
      schema: {
        tags,
        querystring: adminWaiverStatusQuery,
        response: { 200: adminWaiverStatusResponse, 404: errorResponse },
      },
      config: { access: 'bookings.read' },
    },
    async (request) =>
      bookingWaiverStatus(
        app.deps,
        requireAuth(request).tenant,
        request.query.kind,
        request.query.booking_id,
      ),
  );
  app.post(
    '/api/v1/admin/waivers/resend',
    {
      schema: {
        tags,
        body: adminWaiverResendRequest,
        response: { 200: adminWaiverResendResponse, 404: errorResponse },
      },
      config: { access: 'bookings.write' },
    },
    async (request) =>
      resendWaiverRequests(app.deps, requireAuth(request).tenant, request.body.kind, request.body.booking_id),
  );
  app.get(
    '/api/v1/admin/signed-waivers/:id/pdf',
    {
      schema: {
        tags,
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 404: errorResponse },
      },
      config: { access: 'bookings.read' },
    },
    async (request, reply) => {
      const { tenant } = requireAuth(request);
      const [signed, company] = await Promise.all([
        signedWaiverFor(db, tenant, request.params.id),
        companyOf(db, tenant),
      ]);
      return sendPdf(reply, await signedWaiverPdf(signed, company), `waiver-${signed.id}.pdf`);
    },
  );
};
