import { errorResponse } from '@tumble/contracts/http';
import {
  importColumnsResponse,
  importDryRunResponse,
  importMapping,
  importMessages,
  importRunView,
} from '@tumble/contracts/import';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { BadRequestError } from '../../platform/errors.ts';
import { describeFile, dryRun, importRun, latestRun, startImport } from './import.service.ts';

/** The app's upload limit (engine.routes.ts): 10 MB. */
const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** The multipart body: the CSV `file` and, after the upload, the `mapping` as JSON. */
async function upload(request: FastifyRequest) {
  if (!request.isMultipart()) throw new BadRequestError(importMessages.noFile);
  let file: Buffer | null = null;
  let mappingText = '';
  for await (const part of request.parts({ limits: { fileSize: UPLOAD_MAX_BYTES + 1, files: 1 } })) {
    if (part.type === 'file') {
      file = await part.toBuffer();
      if (file.length > UPLOAD_MAX_BYTES) throw new BadRequestError(importMessages.tooBig);
    } else if (part.fieldname === 'mapping') mappingText = String(part.value);
  }
  if (!file || file.length === 0) throw new BadRequestError(importMessages.noFile);
  let mapping: z.infer<typeof importMapping> = {};
  if (mappingText) {
    let json: unknown;
    try {
      json = JSON.parse(mappingText);
    } catch {
      throw new BadRequestError(importMessages.badMapping);
    }
    const parsed = importMapping.safeParse(json);
    if (!parsed.success) throw new BadRequestError(importMessages.badMapping);
    mapping = parsed.data;
  }
  return { file, mapping };
}

/** Importing families from another system (issue 17): upload, dry run, import, progress. */
export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['family import'];
  const config = { access: 'classes.write' } as const;
  const multipart = ['multipart/form-data'];

  app.post(
    '/api/v1/admin/import/columns',
    {
      schema: { tags, consumes: multipart, response: { 200: importColumnsResponse, 400: errorResponse } },
      config,
    },
    async (request) => describeFile(app.deps, requireAuth(request), (await upload(request)).file),
  );
  app.post(
    '/api/v1/admin/import/dry-run',
    {
      schema: { tags, consumes: multipart, response: { 200: importDryRunResponse, 400: errorResponse } },
      config,
    },
    async (request) => {
      const { file, mapping } = await upload(request);
      return dryRun(app.deps, requireAuth(request), file, mapping);
    },
  );
  app.post(
    '/api/v1/admin/import/runs',
    { schema: { tags, consumes: multipart, response: { 200: importRunView, 400: errorResponse } }, config },
    async (request) => {
      const { file, mapping } = await upload(request);
      return startImport(app.deps, requireAuth(request), file, mapping, (err) =>
        request.log.error({ err }, 'family import failed'),
      );
    },
  );
  app.get(
    '/api/v1/admin/import/runs/latest',
    { schema: { tags, response: { 200: z.object({ run: importRunView.nullable() }) } }, config },
    async (request) => ({ run: await latestRun(app.deps.database.db, requireAuth(request).tenant) }),
  );
  app.get(
    '/api/v1/admin/import/runs/:id',
    {
      schema: {
        tags,
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: importRunView },
      },
      config,
    },
    async (request) => importRun(app.deps.database.db, requireAuth(request).tenant, request.params.id),
  );
};
