import { errorResponse, formResponse } from '@tumble/contracts/http';
import {
  type StudentChild,
  type StudentChildForm,
  studentChild,
  studentChildForm,
} from '@tumble/contracts/students';
import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { parseForm } from '../../platform/forms.ts';
import { assertRoomFor } from '../../platform/installation/subscriptions.service.ts';
import { publishedEvent } from '../events/events.service.ts';
import { ownChild } from './account.service.ts';
import { type InsuranceChoices, insuranceChoices } from './insurance-choices.ts';
import { profileColumns, profileExtras } from './student-profile.service.ts';
import { children } from './students.tables.ts';

const tags = ['students'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

function childView(child: typeof children.$inferSelect): StudentChild {
  return {
    id: child.id,
    first_name: child.firstName,
    last_name: child.lastName,
    dob: child.dob,
    consent: child.consent ? 1 : 0,
    insurance_type: child.insuranceType ?? '',
    ...profileExtras(child),
  };
}

function childColumns(form: StudentChildForm) {
  return { ...profileColumns(form), insuranceType: form.insurance_type || null };
}

/** A parent's children (list, add, edit) and the insurance each can still buy (the checkout's per-child choices). */
export const studentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.get(
    '/api/v1/students/children',
    { schema: { tags, response: { 200: z.array(studentChild) } }, config: { access: 'parent.self' } },
    async (request) => {
      const auth = requireAuth(request);
      const rows = await db
        .select()
        .from(children)
        .where(auth.tenant.where(children, eq(children.parentId, auth.userId)))
        .orderBy(asc(children.firstName), asc(children.id));
      return rows.map(childView);
    },
  );
  app.get(
    '/api/v1/students/children/:id',
    {
      schema: { tags, params: idParams, response: { 200: studentChild, 404: errorResponse } },
      config: { access: 'parent.self' },
    },
    async (request) => childView(await ownChild(app.deps, requireAuth(request), request.params.id)),
  );
  const formBody = z.record(z.string(), z.unknown());
  app.post(
    '/api/v1/students/children',
    { schema: { tags, body: formBody, response: { 200: formResponse } }, config: { access: 'parent.self' } },
    async (request) => {
      const auth = requireAuth(request);
      const parsed = parseForm(studentChildForm, request.body);
      if (!parsed.ok) return parsed.response;
      await db.transaction(async (tx) => {
        // Over the plan's children limit: refused, naming the limit and the plan to move to.
        await assertRoomFor(tx, auth.tenant, 'children');
        await tx
          .insert(children)
          .values(auth.tenant.values({ parentId: auth.userId, ...childColumns(parsed.data) }));
      });
      return {
        valid: true,
        info: { title: 'Child added', message: `${parsed.data.first_name} has been added.` },
      };
    },
  );
  app.post(
    '/api/v1/students/children/:id',
    {
      schema: { tags, params: idParams, body: formBody, response: { 200: formResponse, 404: errorResponse } },
      config: { access: 'parent.self' },
    },
    async (request) => {
      const auth = requireAuth(request);
      const child = await ownChild(app.deps, auth, request.params.id);
      const parsed = parseForm(studentChildForm, request.body);
      if (!parsed.ok) return parsed.response;
      await db
        .update(children)
        .set(childColumns(parsed.data))
        .where(auth.tenant.where(children, eq(children.id, child.id)));
      return {
        valid: true,
        info: { title: 'Child saved', message: `${parsed.data.first_name}’s details have been saved.` },
      };
    },
  );

  const product = z.object({
    id: z.number(),
    name: z.string(),
    price: z.number(),
    description: z.string().nullable(),
  });
  app.get(
    '/api/v1/students/events/insurances',
    {
      schema: {
        tags,
        querystring: z.object({ event_id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: {
          200: z.object({
            daily: product.nullable(),
            full: z.array(product),
            children: z.record(z.string(), z.object({ insurance_ids: z.array(z.number()) })),
          }),
        },
      },
      config: { access: 'parent.self' },
    },
    async (request) => {
      const auth = requireAuth(request);
      await publishedEvent(db, auth.tenant, request.query.event_id);
      const { daily, full, remaining } = await insuranceChoices(db, auth.tenant, auth.userId);
      const view = (p: InsuranceChoices['full'][number]) => ({
        id: p.id,
        name: p.name,
        price: p.price,
        description: p.description,
      });
      return {
        daily: daily ? view(daily) : null,
        full: full.map(view),
        children: Object.fromEntries([...remaining].map(([id, ids]) => [String(id), { insurance_ids: ids }])),
      };
    },
  );
};
