import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { addDays, datesBetween } from '../../platform/time.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import { children } from '../students/students.tables.ts';
import { partyBookings, partyGuests } from './parties.tables.ts';

describe('birthday parties', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let other: Awaited<ReturnType<typeof createCompany>>;
  let setup: Awaited<ReturnType<typeof createPartySetup>>;
  let otherSetup: Awaited<ReturnType<typeof createPartySetup>>;
  // Sydney's tomorrow is at most two UTC days ahead; start further out so "tomorrow" rules never bite.
  const day = (n: number) => addDays(new Date().toISOString().slice(0, 10), n);

  const parent = async () => {
    const user = await createUser(t.database.db, company.id, { role: 'student' });
    return { user, ...(await sessionFor(t.database.db, user)) };
  };
  const order = (overrides: Record<string, unknown> = {}) => ({
    slot_id: setup.morning.id,
    date: day(20),
    quantity: 12,
    amount: 10000,
    student: { first_name: 'Ivy', last_name: 'Birthday', dob: '2019-06-01' },
    accept_terms: true,
    ...overrides,
  });
  const checkout = (headers: Record<string, string>, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/birthday-party/booking/checkout?authhash=${company.authhash}`,
      headers,
      payload: body as object,
    });
  const counts = async () => ({
    parties: (await t.database.db.select({ n: count() }).from(partyBookings))[0]!.n,
    children: (await t.database.db.select({ n: count() }).from(children))[0]!.n,
  });

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test' });
    other = await createCompany(t.database.db);
    setup = await createPartySetup(t.database.db, company.id);
    otherSetup = await createPartySetup(t.database.db, other.id);
  });
  afterAll(() => t.close());

  it('the calendar matches slot-capacity for every date of a month, and never offers past or restricted dates', async () => {
    const year = Number(day(40).slice(0, 4));
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/birthday-party/booking/load-calendar?authhash=${company.authhash}&year=${year}`,
    });
    expect(response.statusCode).toBe(200);
    const calendar = JSON.parse(response.json().calendar) as Record<string, { available: number }>;
    expect(Object.keys(calendar).every((date) => date > day(0))).toBe(true);
    if (setup.restricted.startsWith(String(year))) expect(calendar[setup.restricted]).toBeUndefined();
    const p = await parent();
    expect((await checkout(p.headers, order({ date: day(21) }))).statusCode).toBe(200);
    const refreshed = JSON.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/birthday-party/booking/load-calendar?authhash=${company.authhash}&year=${Number(day(21).slice(0, 4))}`,
        })
      ).json().calendar,
    ) as Record<string, { available: number }>;
    expect(refreshed[day(21)]).toEqual({ available: 1 });
    for (const date of datesBetween(day(14), day(44)).filter((d) => d.startsWith(day(21).slice(0, 4)))) {
      const capacity = (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/birthday-party/booking/slot-capacity?authhash=${company.authhash}&date=${date}`,
        })
      ).json();
      expect(capacity.slots.length, date).toBe(refreshed[date]?.available ?? 0);
    }
  });

  it('slot-capacity names the free slots and their most guests', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/birthday-party/booking/slot-capacity?authhash=${company.authhash}&date=${day(25)}`,
    });
    expect(response.json()).toEqual({
      slots: [
        { id: setup.morning.id, name: 'Morning', time: '10:00', duration_minutes: 120 },
        { id: setup.afternoon.id, name: 'Afternoon', time: '14:00', duration_minutes: 120 },
      ],
      capacity: { [setup.morning.id]: 20, [setup.afternoon.id]: 12 },
    });
    const past = await t.app.inject({
      method: 'GET',
      url: `/api/v1/birthday-party/booking/slot-capacity?authhash=${company.authhash}&date=${day(-3)}`,
    });
    expect(past.statusCode).toBe(400);
  });

  it('prices the party with its deposit', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/calculate-charges-summary?authhash=${company.authhash}&type_of_registration=party&date=${day(26)}&quantity=12`,
    });
    const details = response.json().pricing_details;
    expect(details.total.value).toBe(44500);
    expect(details.deposit.value).toBe(10000);
    expect(details.balance.value).toBe(34500);
    expect(details.amount_due.formatted).toBe('$100.00');
  });

  it('20 parents at once for the last slot of a date: exactly one gets it', async () => {
    const date = day(30);
    const parents = await Promise.all(Array.from({ length: 20 }, () => parent()));
    const responses = await Promise.all(
      parents.map((p) => checkout(p.headers, order({ date, slot_id: setup.afternoon.id }))),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const refused = responses.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(19);
    expect(refused[0]!.json().message).toMatch(
      /^Sorry, Afternoon on \d\d\/\d\d\/\d{4} has just been booked\./,
    );
    const live = await t.database.db.select().from(partyBookings).where(eq(partyBookings.date, date));
    expect(live).toHaveLength(1);
  });

  it.each([
    [
      'guests above the slot’s capacity',
      { quantity: 13, slot_id: 'afternoon', amount: 10000 },
      400,
      'Afternoon takes at most 12 guests.',
    ],
    ['a date in the past', { date: 'past' }, 400, 'Please choose a date from tomorrow on.'],
    ['a slot of another company', { slot_id: 'foreign' }, 400, 'Please choose one of the available slots.'],
    ['no child', { student: undefined }, 400, "Child's information is required!"],
    [
      'terms not accepted',
      { accept_terms: false },
      400,
      'You need to accept our Terms and Conditions before placing this booking',
    ],
    [
      'a stale price',
      { amount: 5000 },
      409,
      'The price has changed to $100.00 due now. Please check the summary and confirm again.',
    ],
  ] as [string, Record<string, unknown>, number, string][])(
    'refuses %s with a clear message and writes nothing',
    async (_label, overrides, status, message) => {
      const resolved = {
        ...overrides,
        ...(overrides.slot_id === 'afternoon' ? { slot_id: setup.afternoon.id } : {}),
        ...(overrides.slot_id === 'foreign' ? { slot_id: otherSetup.morning.id } : {}),
        ...(overrides.date === 'past' ? { date: day(-2) } : {}),
      };
      const p = await parent();
      const before = await counts();
      const response = await checkout(p.headers, order({ date: day(33), ...resolved }));
      expect(response.statusCode).toBe(status);
      expect(response.json().message).toBe(message);
      expect(await counts()).toEqual(before);
    },
  );

  it('takes the deposit by card, confirms, and mails the guests’ parents their invitations', async () => {
    const p = await parent();
    const body = (await checkout(p.headers, order({ date: day(35) }))).json();
    expect(body).toMatchObject({ valid: true, method: 'test' });
    const pay = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session: body.sessionId, card_number: '4242424242424242' },
    });
    expect(pay.statusCode).toBe(200);
    const [booking] = await t.database.db
      .select()
      .from(partyBookings)
      .where(eq(partyBookings.reference, body.booking_hash));
    expect(booking).toMatchObject({ status: 'confirmed', total: 44500, deposit: 10000, balance: 34500 });

    const form = await t.app.inject({
      method: 'GET',
      url: `/api/v1/birthday-party/update-guest?id=${body.booking_hash}&count=10&authhash=${company.authhash}`,
      headers: p.headers,
    });
    expect(form.statusCode).toBe(200);
    expect(form.json().fields).toHaveLength(40);
    // 12 guests booked, 10 rows (SPEC.md: count 10): the heading says the rows shown (issue 21 point 7).
    expect(form.json().title).toMatch(/\(up to 10\)$/);

    const invalid = await t.app.inject({
      method: 'POST',
      url: `/api/v1/birthday-party/update-guest?id=${body.booking_hash}&authhash=${company.authhash}`,
      headers: p.headers,
      payload: { guest_1_parent_email: 'not-an-email' },
    });
    expect(invalid.json().valid).toBe(false);
    expect(invalid.json().error.element.map((e: { name: string }) => e.name)).toEqual([
      'guest_1_child_name',
      'guest_1_parent_email',
    ]);

    const guests = {
      guest_1_child_name: 'Oli',
      guest_1_parent_name: 'Ola',
      guest_1_parent_email: 'ola@example.test',
      guest_2_child_name: 'Pip',
      guest_2_parent_email: 'pip.parent@example.test',
      guest_3_child_name: 'Quin',
      guest_3_parent_email: 'quin.parent@example.test',
      guest_4_child_name: 'Rae',
      guest_4_parent_phone: '0400 000 000',
    };
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/v1/birthday-party/update-guest?id=${body.booking_hash}&authhash=${company.authhash}`,
      headers: p.headers,
      payload: guests,
    });
    expect(saved.json()).toEqual({
      valid: true,
      info: { title: 'Guests saved', message: '3 invitations were sent.' },
    });
    const invitations = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'party-invitation'));
    expect(invitations.map((m) => m.toAddress).sort()).toEqual([
      'ola@example.test',
      'pip.parent@example.test',
      'quin.parent@example.test',
    ]);
    expect(invitations[0]!.text).toContain('/birthday-party/waiver/?id=');
    // Saving again invites nobody twice.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/v1/birthday-party/update-guest?id=${body.booking_hash}&authhash=${company.authhash}`,
      headers: p.headers,
      payload: guests,
    });
    expect(again.json().info.message).toBe('Your guest list has been saved.');
    expect(
      await t.database.db.select().from(partyGuests).where(eq(partyGuests.partyBookingId, booking!.id)),
    ).toHaveLength(4);

    const staff = (
      await sessionFor(t.database.db, await createUser(t.database.db, company.id, { role: 'companystaff' }))
    ).headers;
    const year = Number(booking!.date.slice(0, 4));
    const report = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/reports/birthday-parties?year=${year}`,
      headers: staff,
    });
    const row = report
      .json()
      .data.parties.find((p: { reference: string }) => p.reference === body.booking_hash);
    expect(row).toMatchObject({ guests: 12, total: 44500, deposit: 10000, balance: 34500, slot: 'Morning' });
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/reports/birthday-parties?year=${year}&format=csv`,
      headers: staff,
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe('Month,Parties,Guests,Deposits,Balances,Revenue');
    expect(csv.body).toContain(`${body.booking_hash},${booking!.date},Morning,12,445.00,100.00,345.00`);

    const stranger = await parent();
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/v1/birthday-party/update-guest?id=${body.booking_hash}&authhash=${company.authhash}`,
      headers: stranger.headers,
    });
    expect(foreign.statusCode).toBe(404);
  });
});
