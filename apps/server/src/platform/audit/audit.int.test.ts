import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild, createConfirmedBooking } from '../../testing/waiver-fixtures.ts';
import { auditLog } from './audit.tables.ts';
import { describeChange } from './audit.ts';

describe('audit trail', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let staffUser: Awaited<ReturnType<typeof createUser>>;

  const inject = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers, payload });
  const entries = () => t.database.db.select().from(auditLog).orderBy(auditLog.id);

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db);
    admin = (
      await sessionFor(t.database.db, await createUser(t.database.db, company.id, { fullName: 'Alex Admin' }))
    ).headers;
    staffUser = await createUser(t.database.db, company.id, { role: 'companystaff', fullName: 'Sam Staff' });
    staff = (await sessionFor(t.database.db, staffUser)).headers;
  });
  afterAll(() => t.close());

  it('records price changes, booking cancellations, refunds and user changes with who, before and after', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const coupon = `/api/v1/admin/coupons/${fixture.coupon.id}`;
    const formResponse = await inject('GET', `${coupon}/edit`, admin);
    expect(formResponse.statusCode, formResponse.body).toBe(200);
    const form = formResponse.json();
    const values = Object.fromEntries(
      form.fields.map((f: { name: string; value: unknown }) => [f.name, f.value]),
    );
    expect((await inject('POST', coupon, admin, { ...values, percent_off: 15 })).json().valid).toBe(true);

    const parent = await createUser(t.database.db, company.id, { role: 'student' });
    const child = await createChild(t.database.db, company.id, parent.id);
    const { booking, payment } = await createConfirmedBooking(t.database.db, company.id, {
      parentId: parent.id,
      eventId: fixture.event.id,
      childIds: [child.id],
    });
    const cancel = await inject(
      'POST',
      `/api/v1/admin/events/${fixture.event.id}/bookings/dispatch/cancel`,
      staff,
      {
        ids: [booking.id],
        values: { refund: 'refund' },
      },
    );
    expect(cancel.json().success).toBe(true);
    const demote = await inject('POST', `/api/v1/admin/users/${staffUser.id}`, admin, {
      full_name: 'Sam Staff',
      role: 'companycoach',
      status: 'active',
    });
    expect(demote.json().valid).toBe(true);

    const log = await entries();
    expect(log.map((e) => [e.actorName, e.action, e.entity, e.entityId])).toEqual([
      ['Alex Admin', 'update', 'coupons', fixture.coupon.id],
      // Cancelling with "refund" refunds the booking's payment (billing/refunds.service).
      ['Sam Staff', 'create', 'refund', expect.any(Number)],
      ['Sam Staff', 'cancel', 'bookings', booking.id],
      ['Alex Admin', 'update', 'users', staffUser.id],
    ]);
    expect(log[0]!.summary).toBe('percentOff: 10 → 15');
    expect(log[0]!.before).toMatchObject({ percentOff: 10 });
    expect(log[0]!.after).toMatchObject({ percentOff: 15 });
    expect(log[1]!.after).toMatchObject({
      paymentId: payment.id,
      amount: payment.amount,
      destination: 'card',
    });
    expect(log[2]!.summary).toContain('status: confirmed → cancelled');
    expect(log[3]!.summary).toBe('role: companystaff → companycoach');
    // A created row lists what was set, not its empty columns.
    expect(describeChange(null, { id: 5, name: 'Hall', address: null })).toBe('id: — → 5\nname: — → Hall');
    // Secrets never reach the log.
    expect(JSON.stringify(log[3])).not.toContain('passwordHash');
  });

  it('records nothing when the change is refused, and shows the log to company administrators only', async () => {
    const before = (await t.database.db.select({ n: count() }).from(auditLog))[0]!.n;
    const refused = await inject('POST', '/api/v1/admin/coupons', admin, { code: '' });
    expect(refused.json().valid).toBe(false);
    expect((await t.database.db.select({ n: count() }).from(auditLog))[0]!.n).toBe(before);

    const list = await inject('GET', '/api/v1/admin/audit-log?sort=at&order=desc', admin);
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBe(before);
    expect((await inject('GET', '/api/v1/admin/audit-log', staff)).statusCode).toBe(403);

    const other = await createCompany(t.database.db);
    const otherAdmin = (await sessionFor(t.database.db, await createUser(t.database.db, other.id))).headers;
    expect((await inject('GET', '/api/v1/admin/audit-log', otherAdmin)).json().total).toBe(0);
    const [first] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.companyId, company.id))
      .limit(1);
    expect((await inject('GET', `/api/v1/admin/audit-log/${first!.id}`, otherAdmin)).statusCode).toBe(404);
    // Nobody edits or deletes the log.
    expect(
      (await inject('POST', `/api/v1/admin/audit-log/${first!.id}`, admin, { summary: 'x' })).statusCode,
    ).toBe(404);
  });
});
