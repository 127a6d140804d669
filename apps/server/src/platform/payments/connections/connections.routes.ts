import { errorResponse } from '@tumble/contracts/http';
import {
  paymentConnectionProvider,
  paymentConnectionsStatus,
  paymentConnectResponse,
  squareLocationInput,
  squareLocationsResponse,
} from '@tumble/contracts/payment-connections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../auth.ts';
import {
  callbackPath,
  chooseSquareLocation,
  disconnect,
  finishConnect,
  paymentConnectionsOf,
  squareLocations,
  startConnect,
} from './connections.service.ts';

const errors = { 400: errorResponse, 404: errorResponse };

/**
 * The company's own payment accounts (page /admin/integrations/payments): status, connect (to the
 * provider's OAuth page), the providers' callbacks, Square's location, disconnect. Staff with
 * billing.read see it; connecting and disconnecting are the administrator's (billing.write).
 */
export const paymentConnectionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const tags = ['admin: payment connections'];
  const read = { access: 'billing.read' } as const;
  const write = { access: 'billing.write' } as const;
  const path = '/api/v1/admin/integrations/payments';
  const providerParams = z.object({ provider: paymentConnectionProvider });

  app.get(
    path,
    { schema: { tags, response: { 200: paymentConnectionsStatus, ...errors } }, config: read },
    async (request) => paymentConnectionsOf(deps, requireAuth(request).tenant),
  );
  app.post(
    `${path}/:provider/connect`,
    {
      schema: { tags, params: providerParams, response: { 200: paymentConnectResponse, ...errors } },
      config: write,
    },
    async (request) => startConnect(deps, requireAuth(request), request.params.provider),
  );
  app.post(
    `${path}/:provider/disconnect`,
    {
      schema: { tags, params: providerParams, response: { 200: paymentConnectionsStatus, ...errors } },
      config: write,
    },
    async (request) => {
      const auth = requireAuth(request);
      await disconnect(deps, auth, request.params.provider);
      return paymentConnectionsOf(deps, auth.tenant);
    },
  );
  app.get(
    `${path}/square/locations`,
    { schema: { tags, response: { 200: squareLocationsResponse, ...errors } }, config: write },
    async (request) => squareLocations(deps, requireAuth(request).tenant),
  );
  app.post(
    `${path}/square/location`,
    {
      schema: { tags, body: squareLocationInput, response: { 200: paymentConnectionsStatus, ...errors } },
      config: write,
    },
    async (request) => {
      const auth = requireAuth(request);
      await chooseSquareLocation(deps, auth, request.body.location_id);
      return paymentConnectionsOf(deps, auth.tenant);
    },
  );
  // The provider sends the browser back here after its sign-in; the one-time state names the company.
  for (const provider of ['stripe', 'square'] as const) {
    app.get(
      callbackPath(provider),
      {
        schema: {
          tags,
          querystring: z.object({
            code: z.string().max(2000).optional(),
            state: z.string().max(200).optional(),
            error: z.string().max(200).optional(),
            error_description: z.string().max(2000).optional(),
            response_type: z.string().max(50).optional(),
            scope: z.string().max(2000).optional(),
          }),
        },
        config: { access: 'public' },
      },
      async (request, reply) => reply.redirect(await finishConnect(deps, provider, request.query)),
    );
  }
};
