import {
  queueStatusQuery,
  queueStatusResponse,
  queueTicket,
  queueToken,
  takeTicketBody,
} from '@tumble/contracts/enrolment-queue';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicTenant } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import {
  queueSettings,
  queueStatus,
  type TicketView,
  takeTicket,
  ticketOf,
} from './enrolment-queue.service.ts';

const tags = ['registration'];
const authhashQuery = z.object({ authhash: z.string().max(200).optional() });

function ticketJson(ticket: TicketView, now: Date) {
  return {
    token: ticket.token,
    position: ticket.position,
    admitted: ticket.admitted,
    expired: ticket.expired,
    opens_at: ticket.opensAt.toISOString(),
    admit_at: ticket.admitAt.toISOString(),
    admit_per_second: ticket.admitPerSecond,
    estimate_seconds: ticket.estimateSeconds,
    admitted_until: ticket.admittedUntil.toISOString(),
    now: now.toISOString(),
  };
}

/** The enrolment-day waiting room of the public registration page (enrolment-queue.service.ts). */
export const enrolmentQueueRoutes: FastifyPluginAsyncZod = async (app) => {
  const settings = queueSettings(app.deps.config);

  app.get(
    '/api/v1/registration/queue',
    {
      schema: { tags, querystring: queueStatusQuery, response: { 200: queueStatusResponse } },
      config: { access: 'public' },
    },
    async (request) => {
      const tenant = await publicTenant(app, request, request.query.authhash);
      const now = new Date();
      const status = await queueStatus(app.deps.database.db, tenant, request.query.f, settings, now);
      return {
        queued: status.queued,
        opens_at: status.opensAt?.toISOString() ?? null,
        waiting_room_opens_at: status.waitingRoomOpensAt?.toISOString() ?? null,
        time_zone: status.timeZone,
        company: status.company,
        now: now.toISOString(),
      };
    },
  );

  app.post(
    '/api/v1/registration/queue',
    {
      schema: { tags, querystring: authhashQuery, body: takeTicketBody, response: { 200: queueTicket } },
      config: { access: 'public' },
    },
    async (request) => {
      const tenant = await publicTenant(app, request, request.query.authhash);
      const now = new Date();
      return ticketJson(
        await takeTicket(app.deps.database.db, tenant, request.body.form, settings, now),
        now,
      );
    },
  );

  // Polled by every waiting browser: one indexed read of the ticket, no lock (plus the company by
  // authhash, as every public call).
  app.get(
    '/api/v1/registration/queue/:token',
    {
      schema: {
        tags,
        params: z.object({ token: queueToken }),
        querystring: authhashQuery,
        response: { 200: queueTicket },
      },
      config: { access: 'public' },
    },
    async (request) => {
      const tenant = await publicTenant(app, request, request.query.authhash);
      const now = new Date();
      const ticket = await ticketOf(app.deps.database.db, tenant, request.params.token, now);
      if (!ticket) throw new NotFoundError('This queue ticket is not valid. Please reload the page.');
      return ticketJson(ticket, now);
    },
  );
};
