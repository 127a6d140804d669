import { cancellationPreview, cancellationResult, cancellationTarget } from '@tumble/contracts/cancellation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth.ts';
import { confirmCancellation, previewCancellation } from './cancellation.service.ts';

const tags = ['students'];
const config = { access: 'parent.self' } as const;

/** The parent cancels from their account: first what it would do, then doing it (issue 15). */
export const cancellationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/students/cancellations/preview',
    { schema: { tags, querystring: cancellationTarget, response: { 200: cancellationPreview } }, config },
    async (request) => previewCancellation(app.deps, requireAuth(request), request.query),
  );
  app.post(
    '/api/v1/students/cancellations',
    { schema: { tags, body: cancellationTarget, response: { 200: cancellationResult } }, config },
    async (request) => confirmCancellation(app.deps, requireAuth(request), request.body),
  );
};
