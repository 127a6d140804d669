import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { partyBookings, partySlots } from './parties.tables.ts';

const reportRow = z.object({
  month: z.string(),
  parties: z.number(),
  guests: z.number(),
  deposits: z.number(),
  balances: z.number(),
  revenue: z.number(),
});
const partyRow = z.object({
  reference: z.string(),
  date: z.string(),
  slot: z.string(),
  guests: z.number(),
  total: z.number(),
  deposit: z.number(),
  balance: z.number(),
});

/** A CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
const csvCell = (value: string | number) => {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const cents = (n: number) => (n / 100).toFixed(2);

/** Birthday party reports: bookings and guests per month, deposits and balances, and each party. */
export const partyReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/reports/birthday-parties',
    {
      schema: {
        tags: ['reports'],
        querystring: z.object({
          year: z.coerce.number().int().min(2000).max(2200),
          format: z.enum(['json', 'csv']).default('json'),
        }),
        response: {
          200: z.union([z.object({ months: z.array(reportRow), parties: z.array(partyRow) }), z.string()]),
        },
      },
      config: { access: 'bookings.read' },
    },
    async (request, reply) => {
      const { tenant } = requireAuth(request);
      const { year, format } = request.query;
      const where = tenant.where(
        partyBookings,
        eq(sql`extract(year from ${partyBookings.date})`, year),
        inArray(partyBookings.status, ['confirmed']),
      );
      const [months, parties] = await Promise.all([
        app.deps.database.db
          .select({
            month: sql<string>`to_char(${partyBookings.date}, 'YYYY-MM')`,
            parties: sql<number>`count(*)::int`,
            guests: sql<number>`sum(${partyBookings.guests})::int`,
            deposits: sql<number>`sum(${partyBookings.deposit})::int`,
            balances: sql<number>`sum(${partyBookings.balance})::int`,
            revenue: sql<number>`sum(${partyBookings.total})::int`,
          })
          .from(partyBookings)
          .where(where)
          .groupBy(sql`1`)
          .orderBy(sql`1`),
        app.deps.database.db
          .select({
            reference: partyBookings.reference,
            date: partyBookings.date,
            slot: partySlots.name,
            guests: partyBookings.guests,
            total: partyBookings.total,
            deposit: partyBookings.deposit,
            balance: partyBookings.balance,
          })
          .from(partyBookings)
          .innerJoin(partySlots, and(eq(partySlots.id, partyBookings.slotId)))
          .where(where)
          .orderBy(asc(partyBookings.date), asc(partySlots.startTime)),
      ]);
      if (format === 'json') return { months, parties };
      const lines = [
        ['Month', 'Parties', 'Guests', 'Deposits', 'Balances', 'Revenue'],
        ...months.map((m) => [
          m.month,
          m.parties,
          m.guests,
          cents(m.deposits),
          cents(m.balances),
          cents(m.revenue),
        ]),
        [],
        ['Reference', 'Date', 'Slot', 'Guests', 'Total', 'Deposit', 'Balance'],
        ...parties.map((p) => [
          p.reference,
          p.date,
          p.slot,
          p.guests,
          cents(p.total),
          cents(p.deposit),
          cents(p.balance),
        ]),
      ];
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="birthday-parties-${year}.csv"`)
        .send(lines.map((l) => l.map(csvCell).join(',')).join('\r\n'));
    },
  );
};
