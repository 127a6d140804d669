import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users } from '../features/accounts/accounts.tables.ts';
import { invoices } from '../features/billing/ledger.tables.ts';
import { bookings } from '../features/bookings/bookings.tables.ts';
import {
  attendance,
  classEnrolments,
  classSessions,
  termClasses,
} from '../features/classes/classes.tables.ts';
import { contacts } from '../features/crm/crm.tables.ts';
import { events } from '../features/events/events.tables.ts';
import { children } from '../features/students/students.tables.ts';
import { Tenant, type TenantTable } from '../platform/tenancy.ts';
import { signIn } from '../testing/factories.ts';
import { createTestApp, type TestContext } from '../testing/harness.ts';
import { DEMO, type DemoCompany, demoEmail, demoEventCode, seedDemo, seedDemoCompany } from './demo.ts';

/** The per-company tables compared between the demo and its copies. */
const TABLES = {
  users,
  children,
  events,
  bookings,
  termClasses,
  classSessions,
  classEnrolments,
  attendance,
  invoices,
  contacts,
};

describe('copies of the demo company', () => {
  let t: TestContext;
  let a: DemoCompany;
  let b: DemoCompany;
  beforeAll(async () => {
    t = await createTestApp();
    await seedDemo(t.database.db, t.config);
    a = await seedDemoCompany(t.database.db, t.config, { authhash: 'copy-a', emailDomain: 'a.copy.test' });
    b = await seedDemoCompany(t.database.db, t.config, { authhash: 'copy-b', emailDomain: 'b.copy.test' });
  });
  afterAll(() => t.close());

  /** Rows of one company in each table. */
  const countsOf = async (companyId: number) => {
    const tenant = new Tenant(companyId);
    const out: Record<string, number> = {};
    for (const [name, table] of Object.entries(TABLES)) {
      out[name] = (
        await t.database.db
          .select({ n: count() })
          .from(table)
          .where(tenant.where(table as TenantTable))
      )[0]!.n;
    }
    return out;
  };

  it('gives each copy its own company id, authhash and people', async () => {
    expect(new Set([DEMO.companyId, a.companyId, b.companyId]).size).toBe(3);
    expect(a).toMatchObject({
      authhash: 'copy-a',
      name: 'Bounce Gymnastics Parramatta',
      admin: { email: 'admin@a.copy.test', password: 'demo-admin-1', fullName: 'Alex Admin' },
      parent: { email: 'parent@a.copy.test', password: 'demo-parent-1', fullName: 'Pat Parent' },
      coaches: { casey: { email: 'coach@a.copy.test' }, sam: { email: 'coach2@a.copy.test' } },
      coupon: 'WELCOME10',
    });
    expect(b.coaches.sam.email).toBe('coach2@b.copy.test');
    expect(a.venueId).not.toBe(DEMO.venueId);
    expect([a.events.camp, a.events.ninja]).not.toContain(DEMO.events.camp);
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, b.companyId));
    expect(row).toMatchObject({ authhash: 'copy-b', email: 'hello@bounce.b.copy.test' });
    // Every address of a copy is in its own domain.
    const emails = await t.database.db
      .select({ email: users.email })
      .from(users)
      .where(new Tenant(a.companyId).where(users));
    expect(emails.map((u) => u.email.split('@')[1])).toEqual(emails.map(() => 'a.copy.test'));
    expect(emails.map((u) => u.email)).toContain(demoEmail('walker', 'a.copy.test'));
  });

  it('seeds each copy with as many rows as the demo', async () => {
    const demo = await countsOf(DEMO.companyId);
    expect(demo.termClasses).toBeGreaterThan(12);
    expect(demo.classSessions).toBeGreaterThan(12);
    expect(demo.classEnrolments).toBeGreaterThan(12);
    expect(demo.bookings).toBe(3);
    expect(demo.invoices).toBe(4);
    expect(await countsOf(a.companyId)).toEqual(demo);
    expect(await countsOf(b.companyId)).toEqual(demo);
  });

  it("lets each copy's people sign in, and shows a copy's staff none of another's rows", async () => {
    const { db } = t.database;
    const bookingsOf = async (company: DemoCompany) =>
      db
        .select({ id: bookings.id, eventId: bookings.eventId, reference: bookings.reference })
        .from(bookings)
        .where(new Tenant(company.companyId).where(bookings));
    const ofA = await bookingsOf(a);
    const ofB = await bookingsOf(b);
    expect(ofA.every((r) => r.eventId === a.events.camp || r.eventId === a.events.ninja)).toBe(true);
    expect(ofA.map((r) => r.id).filter((id) => ofB.some((r) => r.id === id))).toEqual([]);
    expect(ofA.map((r) => r.reference)).toContain(`demo-money-reports-${a.companyId}`);

    const admin = await signIn(t.app, a.admin);
    await signIn(t.app, a.coaches.casey);
    await signIn(t.app, b.parent, b.authhash);
    const availability = (eventId: number) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/events/${eventId}/availability`,
        headers: admin.headers,
      });
    expect((await availability(a.events.camp)).statusCode).toBe(200);
    expect((await availability(b.events.camp)).statusCode).toBe(404);
    expect((await availability(DEMO.events.camp)).statusCode).toBe(404);
    // The public booking page of copy A does not open copy B's event.
    const sessions = (eventId: number, companyId: number) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/booking/sessions?e=${demoEventCode(eventId, companyId)}&authhash=${a.authhash}`,
      });
    expect((await sessions(a.events.camp, a.companyId)).statusCode).toBe(200);
    expect((await sessions(b.events.camp, b.companyId)).statusCode).not.toBe(200);
  });

  it('leaves every company as it was when the demo is seeded again', async () => {
    const before = await Promise.all([a, b, { companyId: DEMO.companyId }].map((c) => countsOf(c.companyId)));
    const again = await seedDemo(t.database.db, t.config);
    expect(again.created).toBe(false);
    expect(
      await Promise.all([a, b, { companyId: DEMO.companyId }].map((c) => countsOf(c.companyId))),
    ).toEqual(before);
  });

  it('refuses a copy whose authhash is taken', async () => {
    await expect(
      seedDemoCompany(t.database.db, t.config, { authhash: 'copy-a', emailDomain: 'c.copy.test' }),
    ).rejects.toThrow(/exists already/);
  });
});
