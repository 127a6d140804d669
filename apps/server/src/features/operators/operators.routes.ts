import { errorResponse } from '@tumble/contracts/http';
import {
  type CustomerAction,
  customerActionRequest,
  customerDetail,
  customersResponse,
  SUPPORT_REASON_REQUIRED,
  SUSPEND_REASON_REQUIRED,
  supportResponse,
} from '@tumble/contracts/operators';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { BadRequestError, ForbiddenError } from '../../platform/errors.ts';
import { changeCompanyStatus, endSupport, startSupport } from '../accounts/companies.service.ts';
import { getCustomer, listCustomers } from './operators.service.ts';

const tags = ['operators'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
/** Checked in the handler, so a missing reason gets its own sentence rather than a schema error. */
const reasonBody = z.object({ reason: z.unknown().optional() }).passthrough();
const actions: CustomerAction[] = ['approve', 'decline', 'suspend', 'reactivate'];

/**
 * The installation operator's routes (SPEC customers; decision 018). Every one needs
 * 'installation.operate', which only operators hold; ending support access needs only a session.
 */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/operators/customers',
    { schema: { tags, response: { 200: customersResponse } }, config: { access: 'installation.operate' } },
    async () => ({ customers: await listCustomers(app.deps) }),
  );

  app.get(
    '/api/v1/operators/customers/:id',
    {
      schema: { tags, params: idParams, response: { 200: customerDetail, 404: errorResponse } },
      config: { access: 'installation.operate' },
    },
    async (request) => getCustomer(app.deps, request.params.id),
  );

  for (const action of actions) {
    app.post(
      `/api/v1/operators/customers/:id/${action}`,
      {
        schema: { tags, params: idParams, body: reasonBody, response: { 200: customerDetail } },
        config: { access: 'installation.operate' },
      },
      async (request) => {
        const parsed = customerActionRequest.safeParse(request.body);
        if (!parsed.success) throw new BadRequestError(parsed.error.issues[0]!.message);
        const reason = parsed.data.reason || null;
        if (action === 'suspend' && !reason) throw new BadRequestError(SUSPEND_REASON_REQUIRED);
        await changeCompanyStatus(app.deps, requireAuth(request), request.params.id, action, reason);
        return getCustomer(app.deps, request.params.id);
      },
    );
  }

  // "Open as support": the reason is required and audited; the session then acts in the company.
  app.post(
    '/api/v1/operators/customers/:id/support',
    {
      schema: { tags, params: idParams, body: reasonBody, response: { 200: supportResponse } },
      config: { access: 'installation.operate' },
    },
    async (request) => {
      const reason = typeof request.body.reason === 'string' ? request.body.reason.trim() : '';
      if (!reason) throw new BadRequestError(SUPPORT_REASON_REQUIRED);
      if (reason.length > 500) throw new BadRequestError('The reason must be at most 500 characters.');
      const auth = requireAuth(request);
      // An operator already inside a company acts as its administrator and has no installation.operate,
      // so this route is never reached then; the check says so for a reader.
      if (auth.support) throw new ForbiddenError();
      const started = await startSupport(app.deps, auth, request.params.id, reason);
      return { company_name: started.companyName, until: started.until.toISOString() };
    },
  );

  // "End" on the support banner. Any session may call it; it changes only a support session.
  app.post(
    '/api/v1/operators/support/end',
    { schema: { tags }, config: { access: 'signed-in' } },
    async (request, reply) => {
      await endSupport(app.deps, requireAuth(request));
      return reply.code(204).send();
    },
  );
};
