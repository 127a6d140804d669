import { errorResponse } from '@tumble/contracts/http';
import {
  creditNoteRequest,
  invoiceActionResponse,
  invoiceDetail as invoiceDetailSchema,
  invoiceList,
  invoiceListQuery,
  newInvoice,
  newInvoiceDefaults as newInvoiceDefaultsSchema,
  voidRequest,
} from '@tumble/contracts/invoices';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { sendPdf } from '../../platform/pdf.ts';
import { configureInvoicePdf, creditNotePdf, invoicePdf } from './invoice-pdf.ts';
import {
  createOneOffInvoice,
  creditInvoice,
  emailInvoice,
  invoiceDetail,
  issueDraft,
  listInvoices,
  newInvoiceDefaults,
  voidUnpaidInvoice,
} from './invoices.service.ts';

const tags = ['billing'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const body = z.record(z.string(), z.unknown());
const read = { access: 'billing.read' } as const;
const write = { access: 'billing.write' } as const;
const action = {
  tags,
  params: idParams,
  body,
  response: { 200: invoiceActionResponse, 400: errorResponse, 404: errorResponse },
};

/**
 * SPEC invoices (staff) and the parent's invoice PDF (students/invoices). Bodies are checked with
 * the contracts' schemas inside the handler so a refusal is a 400 carrying the field's own message.
 */
export const invoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  configureInvoicePdf(app.deps);

  app.get(
    '/api/v1/admin/invoices',
    { schema: { tags, querystring: invoiceListQuery, response: { 200: invoiceList } }, config: read },
    async (request) => listInvoices(db, requireAuth(request).tenant, request.query),
  );
  app.get(
    '/api/v1/admin/invoices/new-defaults',
    { schema: { tags, response: { 200: newInvoiceDefaultsSchema } }, config: read },
    async (request) => newInvoiceDefaults(db, requireAuth(request).tenant),
  );
  app.post(
    '/api/v1/admin/invoices',
    { schema: { tags, body, response: { 200: invoiceActionResponse, 400: errorResponse } }, config: write },
    async (request) => createOneOffInvoice(app.deps, requireAuth(request), newInvoice.parse(request.body)),
  );
  app.get(
    '/api/v1/admin/invoices/:id',
    {
      schema: { tags, params: idParams, response: { 200: invoiceDetailSchema, 404: errorResponse } },
      config: read,
    },
    async (request) => invoiceDetail(db, requireAuth(request).tenant, request.params.id),
  );
  app.post('/api/v1/admin/invoices/:id/issue', { schema: action, config: write }, async (request) =>
    issueDraft(app.deps, requireAuth(request), request.params.id),
  );
  app.post('/api/v1/admin/invoices/:id/email', { schema: action, config: write }, async (request) =>
    emailInvoice(app.deps, requireAuth(request), request.params.id),
  );
  app.post('/api/v1/admin/invoices/:id/credit-notes', { schema: action, config: write }, async (request) => {
    const auth = requireAuth(request);
    // Another company's id is not found, whatever the body says.
    await invoiceDetail(db, auth.tenant, request.params.id);
    return creditInvoice(app.deps, auth, request.params.id, creditNoteRequest.parse(request.body));
  });
  app.post('/api/v1/admin/invoices/:id/void', { schema: action, config: write }, async (request) => {
    const auth = requireAuth(request);
    await invoiceDetail(db, auth.tenant, request.params.id);
    return voidUnpaidInvoice(app.deps, auth, request.params.id, voidRequest.parse(request.body).reason);
  });
  app.get(
    '/api/v1/admin/invoices/:id/pdf',
    { schema: { tags, params: idParams, response: { 404: errorResponse } }, config: read },
    async (request, reply) => {
      const pdf = await invoicePdf(db, requireAuth(request).tenant, request.params.id);
      return sendPdf(reply, pdf, `invoice-${request.params.id}.pdf`);
    },
  );
  app.get(
    '/api/v1/admin/credit-notes/:id/pdf',
    { schema: { tags, params: idParams, response: { 404: errorResponse } }, config: read },
    async (request, reply) => {
      const pdf = await creditNotePdf(db, requireAuth(request).tenant, request.params.id);
      return sendPdf(reply, pdf, `credit-note-${request.params.id}.pdf`);
    },
  );

  // The parent's own invoice (students/invoices): another family's id answers 404.
  app.get(
    '/api/v1/students/invoices/:id/pdf',
    {
      schema: { tags: ['students'], params: idParams, response: { 404: errorResponse } },
      config: { access: 'parent.self' },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const invoice = await invoiceDetail(db, auth.tenant, request.params.id, auth.userId);
      if (invoice.status === 'draft') return reply.code(404).send({ message: 'Not found.' });
      const pdf = await invoicePdf(db, auth.tenant, invoice.id);
      return sendPdf(reply, pdf, `invoice-${invoice.code ?? invoice.id}.pdf`);
    },
  );
};
