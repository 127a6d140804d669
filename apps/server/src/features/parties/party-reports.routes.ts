import { asc, eq, inArray, sql } from 'drizzle-orm';
import { defineReport, reportRoutes } from '../../platform/reports/report.ts';
import { partyBookings, partySlots } from './parties.tables.ts';

/** Confirmed parties of the chosen year (the caller scopes them to the tenant). */
const confirmedIn = (year: number) => [
  eq(sql`extract(year from ${partyBookings.date})`, year),
  inArray(partyBookings.status, ['confirmed']),
];

/** Birthday parties: bookings and guests per month, deposits and balances, and each party. */
export const partyReport = defineReport({
  name: 'birthday-parties',
  title: 'Birthday party report',
  permission: 'bookings.read',
  filters: [{ name: 'year', label: 'Year', type: 'year' }],
  tables: {
    months: {
      label: 'By month',
      columns: [
        { name: 'month', label: 'Month', type: 'text' },
        { name: 'parties', label: 'Parties', type: 'number' },
        { name: 'guests', label: 'Guests', type: 'number' },
        { name: 'deposits', label: 'Deposits', type: 'money' },
        { name: 'balances', label: 'Balances', type: 'money' },
        { name: 'revenue', label: 'Revenue', type: 'money' },
      ],
      chart: { x: 'month', y: 'revenue' },
      rows: ({ db, tenant, filters }) =>
        db
          .select({
            month: sql<string>`to_char(${partyBookings.date}, 'YYYY-MM')`,
            parties: sql<number>`count(*)::int`,
            guests: sql<number>`sum(${partyBookings.guests})::int`,
            deposits: sql<number>`sum(${partyBookings.deposit})::int`,
            balances: sql<number>`sum(${partyBookings.balance})::int`,
            revenue: sql<number>`sum(${partyBookings.total})::int`,
          })
          .from(partyBookings)
          .where(tenant.where(partyBookings, ...confirmedIn(Number(filters.year))))
          .groupBy(sql`1`)
          .orderBy(sql`1`),
    },
    parties: {
      label: 'Parties',
      columns: [
        { name: 'reference', label: 'Reference', type: 'text' },
        { name: 'date', label: 'Date', type: 'date' },
        { name: 'slot', label: 'Slot', type: 'text' },
        { name: 'guests', label: 'Guests', type: 'number' },
        { name: 'total', label: 'Total', type: 'money' },
        { name: 'deposit', label: 'Deposit', type: 'money' },
        { name: 'balance', label: 'Balance', type: 'money' },
      ],
      rows: ({ db, tenant, filters }) =>
        db
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
          .innerJoin(partySlots, eq(partySlots.id, partyBookings.slotId))
          .where(tenant.where(partyBookings, ...confirmedIn(Number(filters.year))))
          .orderBy(asc(partyBookings.date), asc(partySlots.startTime)),
    },
  },
});

export const partyReportRoutes = reportRoutes([partyReport]);
