import { errorResponse } from '@tumble/contracts/http';
import { familyStatementResponse, statementQuery } from '@tumble/contracts/statement';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { sendPdf } from '../../platform/pdf.ts';
import { familyStatement, statementPdf } from './statement.service.ts';

const params = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const errors = { 400: errorResponse, 404: errorResponse };

/**
 * Each family's account (issue 15): staff read any family of their company (the family's admin
 * page), a parent reads their own (students/invoices, students/payments). Read-only.
 */
export const statementRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const staff = { access: 'billing.read' } as const;
  const parent = { access: 'parent.self' } as const;

  app.get(
    '/api/v1/admin/parents/:id/statement',
    {
      schema: {
        tags: ['admin: billing'],
        params,
        querystring: statementQuery,
        response: { 200: familyStatementResponse, ...errors },
      },
      config: staff,
    },
    async (request) => familyStatement(db, requireAuth(request).tenant, request.params.id, request.query),
  );
  app.get(
    '/api/v1/admin/parents/:id/statement/pdf',
    {
      schema: { tags: ['admin: billing'], params, querystring: statementQuery, response: errors },
      config: staff,
    },
    async (request, reply) => {
      const pdf = await statementPdf(db, requireAuth(request).tenant, request.params.id, request.query);
      return sendPdf(reply, pdf, `statement-${request.params.id}.pdf`);
    },
  );
  app.get(
    '/api/v1/students/statement',
    {
      schema: {
        tags: ['students'],
        querystring: statementQuery,
        response: { 200: familyStatementResponse, ...errors },
      },
      config: parent,
    },
    async (request) => {
      const auth = requireAuth(request);
      return familyStatement(db, auth.tenant, auth.userId, request.query);
    },
  );
  app.get(
    '/api/v1/students/statement/pdf',
    { schema: { tags: ['students'], querystring: statementQuery, response: errors }, config: parent },
    async (request, reply) => {
      const auth = requireAuth(request);
      return sendPdf(reply, await statementPdf(db, auth.tenant, auth.userId, request.query), 'statement.pdf');
    },
  );
};
