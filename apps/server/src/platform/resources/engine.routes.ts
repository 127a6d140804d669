import { errorResponse, formResponse } from '@tumble/contracts/http';
import {
  dispatchRequest,
  dispatchResponse,
  formDefinition,
  listQuery,
  listResponse,
  optionSchema,
  recordSections,
  resourceMeta,
  uploadResponse,
} from '@tumble/contracts/resources';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../auth.ts';
import { BadRequestError } from '../errors.ts';
import { newFileKey, sniffImage } from '../files.ts';
import { ancestorParams, collectionPath, type Resource } from './define.ts';
import * as engine from './engine.service.ts';

const id = z.coerce.number().int().positive().max(2_147_483_647);
const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** Files staff may attach (event downloads, images): recognised by their bytes. */
function sniffUpload(data: Buffer): { extension: string } | null {
  const image = sniffImage(data);
  if (image) return image;
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return { extension: 'pdf' };
  return null;
}

/**
 * Registers every endpoint of each resource (meta, list, view, add/edit forms, create, update,
 * delete, dispatch, options, upload) with the resource's read or write permission as the route's
 * access, so the permission table and the route walker see each one.
 */
export function resourceRoutes(resources: Resource[]): FastifyPluginAsyncZod {
  engine.indexChildren(resources);
  return async (app) => {
    for (const resource of resources) {
      const base = collectionPath(resource);
      // One id parameter per ancestor (terms/:ancestor1Id/classes/:parentId/sessions).
      const ancestors = ancestorParams(resource);
      const params = z.object(Object.fromEntries(ancestors.map((name) => [name, id])));
      const itemParams = z.object({ ...params.shape, id });
      const tags = [`admin: ${resource.name}`];
      const read = { access: resource.permissions.read };
      const write = { access: resource.permissions.write };
      const call = (request: { auth: unknown; params: unknown }) => {
        const values = request.params as Record<string, number | undefined>;
        return {
          deps: app.deps,
          auth: requireAuth(request as never),
          parentId: values.parentId ?? null,
          ancestorIds: ancestors.slice(0, -1).map((name) => values[name]!),
        };
      };

      app.get(
        `${base}/meta`,
        { schema: { tags, params, response: { 200: resourceMeta } }, config: read },
        async (request) => engine.meta(resource, requireAuth(request)),
      );
      app.get(
        base,
        { schema: { tags, params, querystring: listQuery, response: { 200: listResponse } }, config: read },
        async (request) => engine.list(resource, call(request), request.query),
      );
      app.get(
        `${base}/options`,
        {
          schema: {
            tags,
            params,
            querystring: z.object({ q: z.string().max(200).optional() }),
            response: { 200: z.array(optionSchema) },
          },
          config: read,
        },
        async (request) => engine.options(resource, call(request), request.query.q),
      );
      app.get(
        `${base}/add`,
        { schema: { tags, params, response: { 200: formDefinition } }, config: write },
        async (request) => engine.formDefinition(resource, call(request), null),
      );
      app.post(
        base,
        {
          schema: { tags, params, body: z.record(z.string(), z.unknown()), response: { 200: formResponse } },
          config: write,
        },
        async (request) => engine.save(resource, call(request), null, request.body),
      );
      app.post(
        `${base}/dispatch/:action`,
        {
          schema: {
            tags,
            params: z.object({ ...params.shape, action: z.string().max(64) }),
            body: dispatchRequest,
            response: { 200: dispatchResponse, 400: errorResponse },
          },
          // Each action checks its own permission; reading the resource is the least it needs.
          config: read,
        },
        async (request) =>
          engine.dispatch(
            resource,
            call(request),
            request.params.action,
            request.body.ids,
            request.body.values,
          ),
      );
      app.post(
        `${base}/upload`,
        {
          schema: {
            tags,
            params,
            consumes: ['multipart/form-data'],
            response: { 200: uploadResponse, 400: errorResponse },
          },
          config: write,
        },
        async (request) => {
          const auth = requireAuth(request);
          const file = await request.file({ limits: { fileSize: UPLOAD_MAX_BYTES + 1, files: 1 } });
          if (!file) throw new BadRequestError('Please choose a file to upload.');
          const data = await file.toBuffer();
          if (data.length > UPLOAD_MAX_BYTES) throw new BadRequestError('The file must be at most 10 MB.');
          const kind = sniffUpload(data);
          if (!kind) throw new BadRequestError('Please upload a PDF or an image (PNG, JPEG, GIF or WebP).');
          const key = newFileKey('public', auth.tenant.companyId, kind.extension);
          await app.deps.files.put(key, data);
          return { key, url: `/api/v1/files/${key}`, name: file.filename.slice(0, 200) };
        },
      );
      app.get(
        `${base}/:id`,
        {
          schema: { tags, params: itemParams, response: { 200: z.record(z.string(), z.unknown()) } },
          config: read,
        },
        async (request) => engine.view(resource, call(request), request.params.id),
      );
      if (resource.sections) {
        app.get(
          `${base}/:id/sections`,
          { schema: { tags, params: itemParams, response: { 200: recordSections } }, config: read },
          async (request) => engine.sections(resource, call(request), request.params.id),
        );
      }
      app.get(
        `${base}/:id/edit`,
        { schema: { tags, params: itemParams, response: { 200: formDefinition } }, config: write },
        async (request) => engine.formDefinition(resource, call(request), request.params.id),
      );
      app.post(
        `${base}/:id`,
        {
          schema: {
            tags,
            params: itemParams,
            body: z.record(z.string(), z.unknown()),
            response: { 200: formResponse },
          },
          config: write,
        },
        async (request) => engine.save(resource, call(request), request.params.id, request.body),
      );
      app.delete(
        `${base}/:id`,
        { schema: { tags, params: itemParams }, config: write },
        async (request, reply) => {
          await engine.remove(resource, call(request), request.params.id);
          return reply.code(204).send();
        },
      );
    }
  };
}
