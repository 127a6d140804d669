import {
  contactNoteRequest,
  contactRequest,
  contactResponse,
  contactsQuery,
  contactsResponse,
  convertRequest,
  convertResponse,
  crmSettingsRequest,
  crmSettingsResponse,
  enquiryRequest,
  linkFamilyRequest,
} from '@tumble/contracts/crm';
import { errorResponse, formResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicTenant, requireAuth } from '../../platform/auth.ts';
import { parseForm } from '../../platform/forms.ts';
import {
  addContactNote,
  contactView,
  convertContact,
  createContact,
  crmSettingsOf,
  linkContact,
  listContacts,
  saveCrmSettings,
  submitEnquiry,
  updateContact,
} from './crm.service.ts';

const tags = ['crm'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const anyBody = z.record(z.string(), z.unknown());
const staff = { access: 'classes.write' } as const;

/** Contacts (/admin/contacts), settings/crm and the public "Enquire" post (issue 16). */
export const crmRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/api/v1/admin/settings/crm',
    { schema: { tags, response: { 200: crmSettingsResponse } }, config: { access: 'settings.read' } },
    async (request) => crmSettingsOf(db(), requireAuth(request).tenant),
  );

  app.put(
    '/api/v1/admin/settings/crm',
    {
      schema: { tags, body: anyBody, response: { 200: formResponse } },
      config: { access: 'settings.write' },
    },
    async (request) => {
      const form = parseForm(crmSettingsRequest, request.body);
      return form.ok ? saveCrmSettings(db(), requireAuth(request), form.data) : form.response;
    },
  );

  app.get(
    '/api/v1/admin/contacts',
    { schema: { tags, querystring: contactsQuery, response: { 200: contactsResponse } }, config: staff },
    async (request) => listContacts(db(), requireAuth(request).tenant, request.query),
  );

  app.post(
    '/api/v1/admin/contacts',
    { schema: { tags, body: anyBody, response: { 200: formResponse } }, config: staff },
    async (request) => {
      const form = parseForm(contactRequest, request.body);
      return form.ok ? createContact(db(), requireAuth(request), form.data) : form.response;
    },
  );

  app.get(
    '/api/v1/admin/contacts/:id',
    {
      schema: { tags, params: idParams, response: { 200: contactResponse, 404: errorResponse } },
      config: staff,
    },
    async (request) => contactView(db(), requireAuth(request).tenant, request.params.id),
  );

  app.put(
    '/api/v1/admin/contacts/:id',
    {
      schema: { tags, params: idParams, body: anyBody, response: { 200: formResponse, 404: errorResponse } },
      config: staff,
    },
    async (request) => {
      const auth = requireAuth(request);
      const form = parseForm(contactRequest, request.body);
      if (!form.ok) {
        // An unknown or foreign id is 404 whatever the body: the form's messages reveal nothing then.
        await contactView(db(), auth.tenant, request.params.id);
        return form.response;
      }
      return updateContact(db(), auth, request.params.id, form.data);
    },
  );

  app.post(
    '/api/v1/admin/contacts/:id/notes',
    {
      schema: { tags, params: idParams, body: anyBody, response: { 200: formResponse, 404: errorResponse } },
      config: staff,
    },
    async (request) => {
      const auth = requireAuth(request);
      const form = parseForm(contactNoteRequest, request.body);
      if (!form.ok) {
        await contactView(db(), auth.tenant, request.params.id);
        return form.response;
      }
      await addContactNote(db(), auth, request.params.id, form.data.body);
      return { valid: true, info: { title: 'Note added', message: 'The note is on the contact’s log.' } };
    },
  );

  app.post(
    '/api/v1/admin/contacts/:id/convert',
    {
      schema: {
        tags,
        params: idParams,
        body: anyBody,
        response: { 200: convertResponse, 400: errorResponse, 404: errorResponse },
      },
      config: staff,
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const parsed = convertRequest.safeParse(request.body ?? {});
      if (!parsed.success) {
        await contactView(db(), auth.tenant, request.params.id);
        return reply.code(400).send({ message: parsed.error.issues[0]?.message ?? 'Check the children.' });
      }
      return convertContact(app.deps, auth, request.params.id, parsed.data);
    },
  );

  app.post(
    '/api/v1/admin/contacts/:id/link',
    {
      schema: {
        tags,
        params: idParams,
        body: anyBody,
        response: { 200: convertResponse, 400: errorResponse, 404: errorResponse },
      },
      config: staff,
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const parsed = linkFamilyRequest.safeParse(request.body ?? {});
      if (!parsed.success) {
        await contactView(db(), auth.tenant, request.params.id);
        return reply.code(400).send({ message: parsed.error.issues[0]?.message ?? 'Choose a family.' });
      }
      return linkContact(db(), auth, request.params.id, parsed.data.parent_id);
    },
  );

  app.post(
    '/api/v1/registration/enquiry',
    {
      schema: {
        tags,
        querystring: z.object({
          authhash: z.string().max(200).default(''),
          f: z.string().max(100).default(''),
        }),
        body: anyBody,
        response: { 200: formResponse, 404: errorResponse, 429: errorResponse },
      },
      config: { access: 'public' },
    },
    async (request) => {
      const tenant = await publicTenant(app, request, request.query.authhash || undefined);
      const form = parseForm(enquiryRequest, request.body);
      if (!form.ok) return form.response;
      return submitEnquiry(app.deps, tenant, request.query.f, form.data, request.ip);
    },
  );
};
