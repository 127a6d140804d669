import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { attendance, classEnrolments } from '../classes/classes.tables.ts';
import { children } from './students.tables.ts';

describe('the staff Students screens', () => {
  let t: TestContext;
  let staff: Record<string, string>;
  let parentHeaders: Record<string, string>;
  let foreignStaff: Record<string, string>;
  let ruby: typeof children.$inferSelect | undefined;
  let leo: typeof children.$inferSelect | undefined;
  let zara: typeof children.$inferSelect | undefined;
  let foreignChildId: number;

  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload: object, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, payload, headers });
  const names = async (q: string) =>
    (await get(`/api/v1/admin/students?q=${encodeURIComponent(q)}`, staff))
      .json()
      .rows.map((r: { name: string }) => r.name);

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db);
    const tenant = new Tenant(company.id);
    staff = (await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }))).headers;
    const walker = await createUser(db, company.id, {
      role: 'student',
      fullName: 'Jane Walker',
      email: 'jane.walker@example.test',
      phone: '0412 345 678',
    });
    parentHeaders = (await sessionFor(db, walker)).headers;
    const okafor = await createUser(db, company.id, {
      role: 'student',
      fullName: 'Sam Okafor',
      email: 'sam@okafor.test',
      phone: '0499 111 222',
    });
    [ruby, leo] = await db
      .insert(children)
      .values([
        tenant.values({ parentId: walker.id, firstName: 'Ruby', lastName: 'Walker', dob: '2018-03-01' }),
        tenant.values({ parentId: walker.id, firstName: 'Leo', lastName: 'Walker', dob: '2020-06-15' }),
      ])
      .returning();
    [zara] = await db
      .insert(children)
      .values(
        tenant.values({ parentId: okafor.id, firstName: 'Zara', lastName: 'Okafor', dob: '2016-11-20' }),
      )
      .returning();
    // Ruby holds a place in a class of a term not over yet and was marked present twice and absent
    // once; her place in a term that ended long ago is history, not a current class.
    const { termClass, sessions } = await createClassWithSessions(db, company.id, {
      coachId: null,
      dates: ['2026-02-03', '2026-02-10', '2026-02-17', '2099-12-01'],
    });
    const past = await createClassWithSessions(db, company.id, {
      coachId: null,
      dates: ['2025-02-04'],
      name: 'Last year',
    });
    await db.insert(classEnrolments).values([
      tenant.values({
        termClassId: termClass.id,
        childId: ruby!.id,
        kind: 'enrolled' as const,
        status: 'active' as const,
      }),
      tenant.values({
        termClassId: past.termClass.id,
        childId: ruby!.id,
        kind: 'enrolled' as const,
        status: 'active' as const,
      }),
    ]);
    await db.insert(attendance).values(
      sessions.slice(0, 3).map((s, i) =>
        tenant.values({
          sessionId: s.id,
          childId: ruby!.id,
          status: i === 1 ? ('absent' as const) : ('present' as const),
        }),
      ),
    );

    const other = await createCompany(db);
    foreignStaff = (await sessionFor(db, await createUser(db, other.id, { role: 'companyadmin' }))).headers;
    const otherParent = await createUser(db, other.id, { role: 'student', fullName: 'Jane Walker' });
    const [foreign] = await db
      .insert(children)
      .values(
        new Tenant(other.id).values({
          parentId: otherParent.id,
          firstName: 'Ruby',
          lastName: 'Walker',
          dob: '2018-03-01',
        }),
      )
      .returning();
    foreignChildId = foreign!.id;
  });
  afterAll(() => t.close());

  it('finds children by their name, their parent’s name, phone or email, only in the company', async () => {
    expect(await names('rub')).toEqual(['Ruby Walker']);
    expect(await names('okafor')).toEqual(['Zara Okafor']);
    expect(await names('jane walk')).toEqual(['Leo Walker', 'Ruby Walker']);
    expect(await names('0499 111')).toEqual(['Zara Okafor']);
    expect(await names('0412345678')).toEqual(['Leo Walker', 'Ruby Walker']);
    expect(await names('sam@okafor')).toEqual(['Zara Okafor']);
    expect(await names('%')).toEqual([]);
    const all = (await get('/api/v1/admin/students', staff)).json();
    expect(all.total).toBe(3);
    expect(all.rows.find((r: { id: number }) => r.id === ruby!.id)).toMatchObject({
      name: 'Ruby Walker',
      dob: '2018-03-01',
      family: { name: 'Jane Walker', email: 'jane.walker@example.test', phone: '0412 345 678' },
      active_classes: 1,
    });
  });

  it('sorts by name, age and family, both ways, and pages', async () => {
    const order = async (query: string) =>
      (await get(`/api/v1/admin/students?${query}`, staff)).json().rows.map((r: { name: string }) => r.name);
    expect(await order('sort=name')).toEqual(['Leo Walker', 'Ruby Walker', 'Zara Okafor']);
    expect(await order('sort=name&dir=desc')).toEqual(['Zara Okafor', 'Ruby Walker', 'Leo Walker']);
    expect(await order('sort=age')).toEqual(['Leo Walker', 'Ruby Walker', 'Zara Okafor']);
    expect(await order('sort=age&dir=desc')).toEqual(['Zara Okafor', 'Ruby Walker', 'Leo Walker']);
    expect(await order('sort=family')).toEqual(['Leo Walker', 'Ruby Walker', 'Zara Okafor']);
    expect(await order('sort=family&dir=desc')).toEqual(['Zara Okafor', 'Leo Walker', 'Ruby Walker']);
    expect(await order('page=2')).toEqual([]);
    expect((await get('/api/v1/admin/students?sort=height', staff)).statusCode).toBe(400);
  });

  it("shows one child's screen: family, siblings, classes with attendance, payments", async () => {
    const screen = await get(`/api/v1/admin/students/${ruby!.id}`, staff);
    expect(screen.statusCode).toBe(200);
    expect(screen.json()).toMatchObject({
      first_name: 'Ruby',
      consent: 0,
      emergency_contacts: [],
      family: {
        name: 'Jane Walker',
        account_path: `/admin/parents/${ruby!.parentId}/family-account`,
        siblings: [{ id: leo!.id, name: 'Leo Walker' }],
      },
      classes: [{ class_name: 'Kinder Gym Tuesday', when: 'Tuesday 16:00', present: 2, absent: 1 }],
      bookings: [],
      parties: [],
      payments: { owing: 0, invoices: [] },
    });
  });

  it("answers 404 for another company's child and 403 to a parent", async () => {
    expect((await get(`/api/v1/admin/students/${foreignChildId}`, staff)).statusCode).toBe(404);
    expect((await get(`/api/v1/admin/students/${ruby!.id}`, foreignStaff)).statusCode).toBe(404);
    const save = await post(`/api/v1/admin/students/${ruby!.id}`, { first_name: 'X' }, foreignStaff);
    expect(save.statusCode).toBe(404);
    expect((await get('/api/v1/admin/students', parentHeaders)).statusCode).toBe(403);
    expect((await get(`/api/v1/admin/students/${ruby!.id}`, parentHeaders)).statusCode).toBe(403);
    expect((await post(`/api/v1/admin/students/${ruby!.id}`, {}, parentHeaders)).statusCode).toBe(403);
  });

  it('saves the profile with field messages for bad input (nothing changed) and audits the save', async () => {
    const { db } = t.database;
    const bad = await post(
      `/api/v1/admin/students/${zara!.id}`,
      {
        first_name: '',
        last_name: 'Okafor',
        dob: '2999-01-01',
        emergency_contacts: [
          { name: 'A', phone: '1' },
          { name: '', phone: 'call me' },
        ],
      },
      staff,
    );
    expect(bad.statusCode).toBe(200);
    expect(bad.json().valid).toBe(false);
    expect(bad.json().error.element).toEqual([
      { name: 'first_name', messages: ['Please enter the first name.'] },
      { name: 'dob', messages: [expect.any(String)] },
      { name: 'emergency_contacts.1.name', messages: ['Please enter the contact’s name.'] },
      { name: 'emergency_contacts.1.phone', messages: ['Please enter a valid phone number.'] },
    ]);
    const four = { name: 'A', relationship: '', phone: '1' };
    const tooMany = await post(
      `/api/v1/admin/students/${zara!.id}`,
      {
        first_name: 'Zara',
        last_name: 'Okafor',
        dob: '2016-11-20',
        emergency_contacts: [four, four, four, four],
      },
      staff,
    );
    expect(tooMany.json().error.element).toEqual([
      { name: 'emergency_contacts', messages: ['Please give at most 3 emergency contacts.'] },
    ]);
    const [unchanged] = await db.select().from(children).where(eq(children.id, zara!.id));
    expect(unchanged).toEqual(zara);

    const good = await post(
      `/api/v1/admin/students/${zara!.id}`,
      {
        first_name: 'Zara',
        last_name: 'Okafor',
        dob: '2016-11-20',
        consent: 1,
        medical_notes: 'Asthma: inhaler in bag',
        allergies: 'Peanuts',
        school: 'Bondi Public',
        emergency_contacts: [{ name: 'Ada Okafor', relationship: 'Grandmother', phone: '0400 222 333' }],
      },
      staff,
    );
    expect(good.json()).toMatchObject({ valid: true });
    expect((await get(`/api/v1/admin/students/${zara!.id}`, staff)).json()).toMatchObject({
      consent: 1,
      medical_notes: 'Asthma: inhaler in bag',
      allergies: 'Peanuts',
      school: 'Bondi Public',
      emergency_contacts: [{ name: 'Ada Okafor', relationship: 'Grandmother', phone: '0400 222 333' }],
    });
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'children'), eq(auditLog.entityId, zara!.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.summary).toContain('allergies: — → Peanuts');
  });

  it("saves the new fields from the parent's own child form (the same schema)", async () => {
    const saved = await post(
      `/api/v1/students/children/${leo!.id}`,
      {
        first_name: 'Leo',
        last_name: 'Walker',
        dob: '2020-06-15',
        allergies: 'Bees',
        school: 'Little Steps',
        emergency_contacts: [{ name: 'Tom Walker', relationship: 'Uncle', phone: '0400 999 000' }],
      },
      parentHeaders,
    );
    expect(saved.json()).toMatchObject({ valid: true });
    expect((await get(`/api/v1/students/children/${leo!.id}`, parentHeaders)).json()).toMatchObject({
      allergies: 'Bees',
      school: 'Little Steps',
      emergency_contacts: [{ name: 'Tom Walker', relationship: 'Uncle', phone: '0400 999 000' }],
    });
  });
});
