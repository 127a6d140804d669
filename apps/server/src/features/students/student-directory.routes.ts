import { errorResponse, formResponse } from '@tumble/contracts/http';
import {
  staffChildProfileForm,
  studentDirectoryQuery,
  studentDirectoryResponse,
  studentProfileResponse,
} from '@tumble/contracts/student-directory';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { parseForm } from '../../platform/forms.ts';
import { studentDirectory } from './student-directory.service.ts';
import { companyChild, saveStudentProfile, studentProfile } from './student-profile.service.ts';

const tags = ['students'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
// Staff who read the families (parents and their bookings) read their children; coaches too.
const read = { access: 'bookings.read' } as const;
// Changing a family's records is a staff action (as changing a booking's parent is).
const write = { access: 'bookings.write' } as const;

/** The staff Students screens: every child across families, and one child's screen. */
export const studentDirectoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.get(
    '/api/v1/admin/students',
    {
      schema: { tags, querystring: studentDirectoryQuery, response: { 200: studentDirectoryResponse } },
      config: read,
    },
    async (request) => studentDirectory(db, requireAuth(request).tenant, request.query),
  );
  app.get(
    '/api/v1/admin/students/:id',
    {
      schema: { tags, params: idParams, response: { 200: studentProfileResponse, 404: errorResponse } },
      config: read,
    },
    async (request) => studentProfile(app.deps, requireAuth(request).tenant, request.params.id),
  );
  app.post(
    '/api/v1/admin/students/:id',
    {
      schema: {
        tags,
        params: idParams,
        body: z.record(z.string(), z.unknown()),
        response: { 200: formResponse, 404: errorResponse },
      },
      config: write,
    },
    async (request) => {
      const auth = requireAuth(request);
      const parsed = parseForm(staffChildProfileForm, request.body);
      // A foreign or unknown child is 404 before its form is judged.
      await companyChild(app.deps, auth.tenant, request.params.id);
      if (!parsed.ok) return parsed.response;
      await saveStudentProfile(app.deps, auth, request.params.id, parsed.data);
      return {
        valid: true,
        info: { title: 'Child saved', message: `${parsed.data.first_name}’s details have been saved.` },
      };
    },
  );
};
