import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { insurances } from '../billing/billing.tables.ts';
import { publishedEvent } from '../bookings/booking.service.ts';
import { bookingChildren, bookings } from '../bookings/bookings.tables.ts';
import { children } from './students.tables.ts';

const tags = ['students'];

/** A parent's children and the insurance each can still buy (the checkout's per-child choices). */
export const studentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/students/children',
    {
      schema: {
        tags,
        response: {
          200: z.array(
            z.object({
              id: z.number(),
              first_name: z.string(),
              last_name: z.string(),
              dob: z.string(),
              consent: z.number(),
            }),
          ),
        },
      },
      config: { access: 'parent.self' },
    },
    async (request) => {
      const auth = requireAuth(request);
      const rows = await app.deps.database.db
        .select()
        .from(children)
        .where(auth.tenant.where(children, eq(children.parentId, auth.userId)))
        .orderBy(asc(children.firstName), asc(children.id));
      return rows.map((c) => ({
        id: c.id,
        first_name: c.firstName,
        last_name: c.lastName,
        dob: c.dob,
        consent: c.consent ? 1 : 0,
      }));
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
      const { db } = app.deps.database;
      await publishedEvent(db, auth.tenant, request.query.event_id);
      const [products, own] = await Promise.all([
        db
          .select()
          .from(insurances)
          .where(auth.tenant.where(insurances, isNull(insurances.archivedAt)))
          .orderBy(insurances.id),
        db
          .select({ id: children.id })
          .from(children)
          .where(auth.tenant.where(children, eq(children.parentId, auth.userId))),
      ]);
      const childIds = own.map((c) => c.id);
      // Full cover already bought on a confirmed booking is not offered again for that child.
      const bought = childIds.length
        ? await db
            .select({ childId: bookingChildren.childId, ids: bookingChildren.insuranceIds })
            .from(bookingChildren)
            .innerJoin(bookings, eq(bookings.id, bookingChildren.bookingId))
            .where(
              and(
                auth.tenant.where(bookingChildren, inArray(bookingChildren.childId, childIds)),
                eq(bookings.status, 'confirmed'),
              ),
            )
        : [];
      const full = products.filter((p) => p.kind === 'full');
      const daily = products.find((p) => p.kind === 'daily');
      const view = (p: typeof insurances.$inferSelect) => ({
        id: p.id,
        name: p.name,
        price: p.price,
        description: p.description,
      });
      return {
        daily: daily ? view(daily) : null,
        full: full.map(view),
        children: Object.fromEntries(
          childIds.map((id) => {
            const owned = new Set(bought.filter((b) => b.childId === id).flatMap((b) => b.ids));
            return [String(id), { insurance_ids: full.map((p) => p.id).filter((pid) => !owned.has(pid)) }];
          }),
        ),
      };
    },
  );
};
