import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../platform/payments/payments.tables.ts';
import type { PurchaseKind } from '../../platform/payments/settlement.ts';
import { randomToken } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createClassWithSessions, createCoach } from '../../testing/coach-fixtures.ts';
import { type CompanyRow, createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createConfirmedLesson, createPrivateSlot } from '../../testing/private-lesson-fixtures.ts';
import { createChild } from '../../testing/waiver-fixtures.ts';
import { classEnrolments } from '../classes/classes.tables.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from '../classes/enrolments.tables.ts';

/**
 * The parent's Payments page (SPEC students/payments) lists every purchase kind's payments: class
 * enrolments (EN-…) and private lessons (PL-…) as well as events and parties, each with what it
 * was for, and only the parent's own.
 */
describe("the parent's payments of classes and private lessons", () => {
  let t: TestContext;
  let company: CompanyRow;
  let other: CompanyRow;

  const parent = async (companyId: number, fullName: string) => {
    const user = await createUser(t.database.db, companyId, { role: 'student', fullName });
    return { id: user.id, ...(await sessionFor(t.database.db, user)) };
  };
  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

  /** A confirmed enrolment purchase of a full place in the class for each child, as checkout leaves it. */
  async function createEnrolment(companyId: number, parentId: number, childIds: number[], name: string) {
    const { db } = t.database;
    const tenant = new Tenant(companyId);
    const { termClass } = await createClassWithSessions(db, companyId, {
      coachId: null,
      dates: ['2030-02-05'],
      name,
    });
    const [purchase] = await db
      .insert(enrolmentPurchases)
      .values(
        tenant.values({
          parentId,
          reference: randomToken(12),
          code: `EN-${randomToken(4).slice(0, 5).toUpperCase()}`,
          status: 'confirmed' as const,
          pricing: { total: 5000 },
          total: 5000,
        }),
      )
      .returning();
    for (const childId of childIds) {
      const [place] = await db
        .insert(classEnrolments)
        .values(
          tenant.values({
            termClassId: termClass.id,
            childId,
            kind: 'enrolled' as const,
            status: 'active' as const,
            startsOn: '2030-02-05',
          }),
        )
        .returning();
      await db
        .insert(enrolmentPurchaseItems)
        .values(tenant.values({ purchaseId: purchase!.id, enrolmentId: place!.id, amount: 2500 }));
    }
    return purchase!;
  }

  async function pay(
    companyId: number,
    purchaseKind: PurchaseKind,
    purchaseId: number,
    amount: number,
    minutesAgo: number,
    status: 'paid' | 'open' = 'paid',
  ) {
    const [row] = await t.database.db
      .insert(payments)
      .values(
        new Tenant(companyId).values({
          purchaseKind,
          purchaseId,
          provider: 'test' as const,
          providerRef: `test_${randomToken(8)}`,
          amount,
          status,
          paidAt: status === 'paid' ? new Date(Date.now() - minutesAgo * 60_000) : null,
        }),
      )
      .returning();
    return row!;
  }

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test' });
    other = await createCompany(t.database.db, { paymentMethod: 'test' });
  });
  afterAll(() => t.close());

  it('lists my enrolment and private lesson payments with what they were for, not another family’s or company’s', async () => {
    const { db } = t.database;
    const me = await parent(company.id, 'Pat Parent');
    const neighbour = await parent(company.id, 'Nell Neighbour');
    const leo = await createChild(db, company.id, me.id, 'Leo');
    const mia = await createChild(db, company.id, me.id, 'Mia');
    const ned = await createChild(db, company.id, neighbour.id, 'Ned');

    const enrolment = await createEnrolment(company.id, me.id, [leo.id, mia.id], 'Kinder Gym Tuesday');
    const { coach } = await createCoach(db, company.id, { fullName: 'Casey Coach' });
    // Tuesday 1 December 2026, 4:00pm.
    const slot = await createPrivateSlot(db, company.id, { coachId: coach.id, date: '2026-12-01' });
    const lesson = await createConfirmedLesson(db, company.id, {
      parentId: me.id,
      slot,
      date: '2026-12-01',
      childIds: [leo.id],
    });
    const enrolmentPaid = await pay(company.id, 'enrolment', enrolment.id, 5000, 10);
    const lessonPaid = await pay(company.id, 'private_lesson', lesson.id, 6000, 5);
    // A payment still open is not money that moved.
    await pay(company.id, 'enrolment', enrolment.id, 5000, 0, 'open');

    // The neighbour's enrolment in the same company, and another company's payment whose purchase
    // id is the same number as mine: neither is listed.
    const theirs = await createEnrolment(company.id, neighbour.id, [ned.id], 'Ninja Saturday');
    const theirsPaid = await pay(company.id, 'enrolment', theirs.id, 4000, 1);
    const foreignPaid = await pay(other.id, 'enrolment', enrolment.id, 7000, 2);
    const foreignLesson = await pay(other.id, 'private_lesson', lesson.id, 7000, 3);

    const mine = await get('/api/v1/students/payments', me.headers);
    expect(mine.statusCode).toBe(200);
    expect(
      mine
        .json()
        .map((p: { id: number; description: string; amount: number }) => [p.id, p.description, p.amount]),
    ).toEqual([
      [lessonPaid.id, `Private lesson with Casey Coach, Tue 1 Dec 4:00pm (booking ${lesson.code})`, 6000],
      [enrolmentPaid.id, `Kinder Gym Tuesday 4:00pm for Leo, Mia (booking ${enrolment.code})`, 5000],
    ]);
    const receipt = await get(`/api/v1/students/payments/${enrolmentPaid.id}/receipt`, me.headers);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toContain('application/pdf');

    const seen = (await get('/api/v1/students/payments', neighbour.headers)).json();
    expect(seen.map((p: { id: number; description: string }) => [p.id, p.description])).toEqual([
      [theirsPaid.id, `Ninja Saturday 4:00pm for Ned (booking ${theirs.code})`],
    ]);
    expect(
      (await get(`/api/v1/students/payments/${lessonPaid.id}/receipt`, neighbour.headers)).statusCode,
    ).toBe(404);
    for (const id of [theirsPaid.id, foreignPaid.id, foreignLesson.id])
      expect((await get(`/api/v1/students/payments/${id}/receipt`, me.headers)).statusCode).toBe(404);
  });
});
