import type { Db } from '../db/client.ts';
import { bookingChildren, bookings } from '../features/bookings/bookings.tables.ts';
import { partyBookings, partyGuests } from '../features/parties/parties.tables.ts';
import { children } from '../features/students/students.tables.ts';
import { waivers } from '../features/waivers/waivers.tables.ts';
import { payments } from '../platform/payments/payments.tables.ts';
import { randomToken } from '../platform/secrets.ts';
import { Tenant } from '../platform/tenancy.ts';

/** A 1×1 PNG as the signature pad sends it. */
export const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export async function createWaiverTemplate(
  db: Db,
  companyId: number,
  overrides: Partial<typeof waivers.$inferInsert> = {},
) {
  const [waiver] = await db
    .insert(waivers)
    .values(
      new Tenant(companyId).values({
        title: 'Participation waiver',
        body: '<p>I accept the risks of gymnastics &amp; play.</p><p>Second paragraph.</p>',
        appliesTo: 'all' as const,
        askFields: ['medical', 'photo_consent'],
        ...overrides,
      }),
    )
    .returning();
  return waiver!;
}

export async function createChild(db: Db, companyId: number, parentId: number, firstName = 'Mia') {
  const [child] = await db
    .insert(children)
    .values(new Tenant(companyId).values({ parentId, firstName, lastName: 'Tester', dob: '2018-04-09' }))
    .returning();
  return child!;
}

/**
 * A confirmed (paid) event booking for these children, as checkout and settlement leave it. The
 * booking flow itself is covered by the booking tests; waiver and account tests start from here.
 */
export async function createConfirmedBooking(
  db: Db,
  companyId: number,
  input: { parentId: number; eventId: number; childIds: number[]; total?: number },
) {
  const tenant = new Tenant(companyId);
  const total = input.total ?? 4500;
  const [booking] = await db
    .insert(bookings)
    .values(
      tenant.values({
        parentId: input.parentId,
        eventId: input.eventId,
        reference: randomToken(12),
        code: `BK-${randomToken(6)}`,
        status: 'confirmed' as const,
        quantity: input.childIds.length,
        pricing: { total },
        total,
        provider: 'test' as const,
        confirmedAt: new Date(),
      }),
    )
    .returning();
  await db
    .insert(bookingChildren)
    .values(input.childIds.map((childId) => tenant.values({ bookingId: booking!.id, childId })));
  const [payment] = await db
    .insert(payments)
    .values(
      tenant.values({
        purchaseKind: 'event' as const,
        purchaseId: booking!.id,
        provider: 'test' as const,
        providerRef: `test_${randomToken(8)}`,
        amount: total,
        status: 'paid' as const,
        paidAt: new Date(),
      }),
    )
    .returning();
  return { booking: booking!, payment: payment! };
}

/** A confirmed party for this child with these guests (name and parent email). */
export async function createConfirmedParty(
  db: Db,
  companyId: number,
  input: {
    parentId: number;
    slotId: number;
    childId: number;
    date: string;
    guests?: { childName: string; parentEmail: string | null }[];
  },
) {
  const tenant = new Tenant(companyId);
  const [party] = await db
    .insert(partyBookings)
    .values(
      tenant.values({
        parentId: input.parentId,
        slotId: input.slotId,
        date: input.date,
        childId: input.childId,
        reference: randomToken(12),
        code: `BP-${randomToken(6)}`,
        status: 'confirmed' as const,
        guests: 10,
        pricing: { total: 39500 },
        total: 39500,
        deposit: 10000,
        balance: 29500,
        provider: 'test' as const,
        confirmedAt: new Date(),
      }),
    )
    .returning();
  const guests = input.guests?.length
    ? await db
        .insert(partyGuests)
        .values(
          input.guests.map((g, i) => tenant.values({ partyBookingId: party!.id, position: i + 1, ...g })),
        )
        .returning()
    : [];
  return { party: party!, guests };
}
