import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { surcharges } from '../../features/billing/billing.tables.ts';
import { events } from '../../features/events/events.tables.ts';
import { birthdayPricing } from '../../features/parties/parties.tables.ts';
import { createCompany, createUser, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';

/** How the engine turns what staff type into what the columns store (issue 21 points 17 and 26). */
describe('resource engine: values staff type', () => {
  let t: TestContext;
  let headers: Record<string, string>;
  let companyId: number;
  const post = (url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers, payload });

  beforeAll(async () => {
    t = await createTestApp();
    companyId = (await createCompany(t.database.db)).id;
    const admin = await createUser(t.database.db, companyId, {
      role: 'companyadmin',
      password: 'a long enough password',
    });
    headers = (await signIn(t.app, admin)).headers;
  });
  afterAll(() => t.close());

  describe('a money field with a default that the save leaves out takes the default (point 26)', () => {
    const event = {
      name: 'Holiday camp',
      start_date: '2030-01-06',
      end_date: '2030-01-10',
      age_start: 5,
      age_end: 12,
      cutoff_days_before: 0,
    };

    it('an event without booking_fee is saved with a fee of 0, on create and on edit', async () => {
      const created = await post('/api/v1/admin/events', event);
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json()).toMatchObject({ valid: true });
      const [row] = await t.database.db.select().from(events).where(eq(events.companyId, companyId));
      expect(row!.bookingFee).toBe(0);

      await t.database.db.update(events).set({ bookingFee: 500 }).where(eq(events.id, row!.id));
      const edited = await post(`/api/v1/admin/events/${row!.id}`, { ...event, booking_fee: null });
      expect(edited.json()).toMatchObject({ valid: true });
      const [after] = await t.database.db.select().from(events).where(eq(events.id, row!.id));
      expect(after!.bookingFee).toBe(0);
    });

    it('birthday pricing without deposit is saved with a deposit of 0', async () => {
      const response = await post('/api/v1/admin/birthday-pricing', {
        name: 'Party',
        base_price: 30000,
        included_guests: 10,
        price_per_extra_guest: 1500,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ valid: true });
      const [row] = await t.database.db
        .select()
        .from(birthdayPricing)
        .where(eq(birthdayPricing.companyId, companyId));
      expect(row!.deposit).toBe(0);
    });
  });

  describe('surcharges are typed as a percentage and stored in basis points (point 17)', () => {
    const base = { name: 'Card surcharge', payment_method: 'stripe' };
    const stored = async (name: string) =>
      (await t.database.db.select().from(surcharges).where(eq(surcharges.companyId, companyId))).find(
        (s) => s.name === name,
      );

    it('1.5 is stored as 150 and shown back as 1.5', async () => {
      const response = await post('/api/v1/admin/surcharges', { ...base, kind: 'percent', percent: 1.5 });
      expect(response.json()).toMatchObject({ valid: true });
      const row = await stored('Card surcharge');
      expect(row!.amount).toBe(150);
      const view = await t.app.inject({ method: 'GET', url: `/api/v1/admin/surcharges/${row!.id}`, headers });
      expect(view.json()).toMatchObject({ kind: 'percent', percent: 1.5, fixed_amount: null });
      const form = await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/surcharges/${row!.id}/edit`,
        headers,
      });
      const percentField = form.json().fields.find((f: { name: string }) => f.name === 'percent');
      expect(percentField).toMatchObject({
        type: 'percent',
        value: 1.5,
        when: { field: 'kind', value: 'percent' },
      });
    });

    it('a fixed surcharge is typed in cents as money and stored as is', async () => {
      const response = await post('/api/v1/admin/surcharges', {
        ...base,
        name: 'Phone fee',
        payment_method: 'square',
        kind: 'fixed',
        fixed_amount: 250,
        percent: 99,
      });
      expect(response.json()).toMatchObject({ valid: true });
      expect((await stored('Phone fee'))!.amount).toBe(250);
    });

    it.each([
      [{ kind: 'percent', percent: 25 }, 'percent', 'A surcharge cannot be more than 20%.'],
      [{ kind: 'percent', percent: 1.555 }, 'percent', 'Percent may have at most two decimals.'],
      [{ kind: 'percent' }, 'percent', 'Percent is required.'],
      [{ kind: 'fixed', percent: 1.5 }, 'fixed_amount', 'Amount is required.'],
    ])('refuses %j: %s', async (values, fieldName, message) => {
      const response = await post('/api/v1/admin/surcharges', { ...base, name: 'Refused', ...values });
      expect(response.json()).toMatchObject({
        valid: false,
        error: { element: [{ name: fieldName, messages: [message] }] },
      });
      expect(await stored('Refused')).toBeUndefined();
    });
  });
});
