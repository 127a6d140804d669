import { autopayRequest, savedCardResponse, savedCardReturnResponse } from '@tumble/contracts/autopay';
import { checkoutResponse } from '@tumble/contracts/booking';
import { errorResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { browserOrigin } from '../../platform/payments/origin.ts';
import {
  cardSetupReturned,
  removeCard,
  savedCardOf,
  setAutopay,
  startSavingCard,
} from './saved-card.service.ts';

const tags = ['students'];
const config = { access: 'parent.self' } as const;

/** The parent's saved card and autopay switch (page /admin/students/card). */
export const savedCardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/api/v1/students/saved-card',
    { schema: { tags, response: { 200: savedCardResponse } }, config },
    async (request) => {
      const auth = requireAuth(request);
      return savedCardOf(db, auth.tenant, auth.userId);
    },
  );

  // Opens the provider's "save a card" page; answered like a checkout (embedded form or a link).
  // It takes nothing: a body with fields is a request for something else, refused before any setup starts.
  app.post(
    '/api/v1/students/saved-card/setup',
    {
      schema: {
        tags,
        body: z.strictObject({}).nullish(),
        response: { 200: checkoutResponse, 400: errorResponse },
      },
      config,
    },
    async (request) =>
      startSavingCard(app.deps, requireAuth(request), browserOrigin(app.deps.config, request)),
  );

  // Back from the provider's page: saves the card if the provider says the setup finished.
  app.post(
    '/api/v1/students/saved-card/return',
    { schema: { tags, response: { 200: savedCardReturnResponse } }, config },
    async (request) => {
      const auth = requireAuth(request);
      return cardSetupReturned(app.deps, auth.tenant, auth.userId);
    },
  );

  app.post(
    '/api/v1/students/saved-card/autopay',
    {
      schema: { tags, body: autopayRequest, response: { 200: savedCardResponse, 400: errorResponse } },
      config,
    },
    async (request) => {
      const auth = requireAuth(request);
      return setAutopay(db, auth.tenant, auth.userId, request.body.autopay);
    },
  );

  app.post(
    '/api/v1/students/saved-card/remove',
    { schema: { tags, response: { 200: savedCardResponse } }, config },
    async (request) => {
      const auth = requireAuth(request);
      return removeCard(db, auth.tenant, auth.userId);
    },
  );
};
