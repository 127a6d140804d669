import {
  accountingConnectResponse,
  accountingCsvQuery,
  accountingSettingsInput,
  accountingStatus,
  accountingSyncResponse,
} from '@tumble/contracts/accounting';
import { errorResponse } from '@tumble/contracts/http';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../../platform/auth.ts';
import {
  accountingCsv,
  accountingStatusOf,
  disconnectXero,
  finishXeroConnect,
  saveAccountingSettings,
  startXeroConnect,
  syncAccounting,
  xeroCallbackPath,
} from './accounting.service.ts';

const errors = { 400: errorResponse, 404: errorResponse };

/** A CSV download (as platform/pdf.ts sendPdf): an attachment nobody caches. */
function sendCsv(reply: FastifyReply, body: string, filename: string) {
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .header('Cache-Control', 'private, no-store')
    .send(body);
}

/**
 * SPEC integrations/accounting (page /admin/integrations/accounting): the settings, Xero's
 * connect / callback / disconnect, "Sync now" and the CSV downloads. Staff read with billing.read;
 * changing the mapping or the connection is the administrator's (billing.write).
 */
export const accountingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const { db } = deps.database;
  const tags = ['admin: accounting'];
  const read = { access: 'billing.read' } as const;
  const write = { access: 'billing.write' } as const;
  const path = '/api/v1/admin/integrations/accounting';

  app.get(
    path,
    { schema: { tags, response: { 200: accountingStatus, ...errors } }, config: read },
    async (request) => accountingStatusOf(deps, requireAuth(request).tenant),
  );
  app.post(
    path,
    {
      schema: { tags, body: accountingSettingsInput, response: { 200: accountingStatus, ...errors } },
      config: write,
    },
    async (request) => {
      const { tenant } = requireAuth(request);
      await saveAccountingSettings(db, tenant, request.body);
      return accountingStatusOf(deps, tenant);
    },
  );
  app.post(
    `${path}/connect`,
    { schema: { tags, response: { 200: accountingConnectResponse, ...errors } }, config: write },
    async (request) => startXeroConnect(deps, requireAuth(request)),
  );
  app.post(
    `${path}/disconnect`,
    { schema: { tags, response: { 200: accountingStatus, ...errors } }, config: write },
    async (request) => {
      const { tenant } = requireAuth(request);
      await disconnectXero(deps, tenant);
      return accountingStatusOf(deps, tenant);
    },
  );
  app.post(
    `${path}/sync`,
    { schema: { tags, response: { 200: accountingSyncResponse, ...errors } }, config: write },
    async (request) => syncAccounting(deps, requireAuth(request).tenant),
  );
  app.get(
    `${path}/csv`,
    { schema: { tags, querystring: accountingCsvQuery, response: errors }, config: read },
    async (request, reply) => {
      const { filename, body } = await accountingCsv(db, requireAuth(request).tenant, request.query);
      return sendCsv(reply, body, filename);
    },
  );
  // Xero sends the browser back here after its login; the one-time state names the company.
  app.get(
    xeroCallbackPath,
    {
      schema: {
        tags,
        querystring: z.object({
          code: z.string().max(2000).optional(),
          state: z.string().max(200).optional(),
          error: z.string().max(200).optional(),
        }),
      },
      config: { access: 'public' },
    },
    async (request, reply) => reply.redirect(await finishXeroConnect(deps, request.query)),
  );
};
