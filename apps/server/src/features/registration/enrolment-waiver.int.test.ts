import { waiverMessages } from '@tumble/contracts/waiver';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { type CompanyRow, createCompany, createUser } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild, createWaiverTemplate, SIGNATURE } from '../../testing/waiver-fixtures.ts';
import { classEnrolments } from '../classes/classes.tables.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from '../classes/enrolments.tables.ts';
import { signedWaivers } from '../waivers/waivers.tables.ts';
import { registrationForms } from './registration.tables.ts';

/**
 * The waiver step of a class enrolment (kind `enrolment`): the existing waiver flow at
 * /api/v1/registration/waiver, one waiver per child of the purchase, the form's template.
 */
let t: TestContext;
let company: CompanyRow;
let other: CompanyRow;
let parentId: number;
let childIds: number[];
let formWaiverId: number;
let classesWaiverId: number;

const api = '/api/v1/registration/waiver';

/** A purchase of places for these children through this form, as the enrolment checkout leaves it. */
async function createPurchase(input: {
  formId: number | null;
  status?: 'pending' | 'confirmed' | 'cancelled';
}) {
  const { db } = t.database;
  const tenant = new Tenant(company.id);
  const { termClass } = await createClassWithSessions(db, company.id, {
    coachId: null,
    dates: ['2030-02-05'],
  });
  const reference = randomToken(12);
  const [purchase] = await db
    .insert(enrolmentPurchases)
    .values(
      tenant.values({
        parentId,
        reference,
        code: `EN-${randomToken(5)}`,
        status: input.status ?? 'pending',
        pricing: { total: 5000 },
        total: 5000,
        registrationFormId: input.formId,
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
          startsOn: '2030-02-05',
        }),
      )
      .returning();
    await db
      .insert(enrolmentPurchaseItems)
      .values(tenant.values({ purchaseId: purchase!.id, enrolmentId: place!.id, amount: 2500 }));
  }
  return reference;
}

const sign = (reference: string, childId: number, authhash = company.authhash) =>
  t.app.inject({
    method: 'POST',
    url: `${api}?authhash=${authhash}`,
    payload: {
      id: reference,
      child_id: childId,
      first_name: 'Mia',
      last_name: 'Tester',
      dob: '2018-04-09',
      signer_name: 'Pat Parent',
      signature: SIGNATURE,
      agree: true,
    },
  });

const page = async (reference: string, authhash = company.authhash) =>
  (await t.app.inject({ method: 'GET', url: `${api}?id=${reference}&authhash=${authhash}` })).json();

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.database;
  company = await createCompany(db);
  other = await createCompany(db);
  parentId = (await createUser(db, company.id, { role: 'student', fullName: 'Pat Parent' })).id;
  childIds = [
    (await createChild(db, company.id, parentId, 'Mia')).id,
    (await createChild(db, company.id, parentId, 'Leo')).id,
  ];
  // The company's general waiver, its newer one for classes, and the one a form names.
  await createWaiverTemplate(db, company.id, { title: 'General waiver', appliesTo: 'all' });
  formWaiverId = (
    await createWaiverTemplate(db, company.id, { title: 'Gym classes waiver', appliesTo: 'classes' })
  ).id;
  classesWaiverId = (
    await createWaiverTemplate(db, company.id, { title: 'Term classes waiver', appliesTo: 'classes' })
  ).id;
});
afterAll(() => t.close());

describe('the enrolment waiver', () => {
  it('asks one waiver per child of the purchase, of the form’s template, and signs them one by one', async () => {
    const [form] = await t.database.db
      .insert(registrationForms)
      .values({ companyId: company.id, key: 'term-1', name: 'Term 1 classes', waiverId: formWaiverId })
      .returning();
    const reference = await createPurchase({ formId: form!.id });

    const before = await page(reference);
    expect(before).toMatchObject({ valid: true, title: 'Term 1 classes', hash: reference });
    expect(before.waiver).toMatchObject({ id: formWaiverId, title: 'Gym classes waiver' });
    expect(
      before.people.map((p: { first_name: string; status: string }) => [p.first_name, p.status]),
    ).toEqual([
      ['Mia', 'needed'],
      ['Leo', 'needed'],
    ]);

    expect((await sign(reference, childIds[0]!)).json()).toMatchObject({ valid: true });
    const half = await page(reference);
    expect(half.people.map((p: { status: string }) => p.status)).toEqual(['signed', 'needed']);
    expect((await sign(reference, childIds[1]!)).json()).toMatchObject({ valid: true });
    expect((await page(reference)).people.map((p: { status: string }) => p.status)).toEqual([
      'signed',
      'signed',
    ]);

    const rows = await t.database.db
      .select()
      .from(signedWaivers)
      .where(eq(signedWaivers.companyId, company.id));
    expect(rows.map((r) => [r.childId, r.waiverId, r.parentId])).toEqual([
      [childIds[0], formWaiverId, parentId],
      [childIds[1], formWaiverId, parentId],
    ]);
    // Signing again for the same child and purchase adds nothing.
    expect((await sign(reference, childIds[0]!)).json()).toMatchObject({ valid: true });
    expect(
      await t.database.db.select().from(signedWaivers).where(eq(signedWaivers.companyId, company.id)),
    ).toHaveLength(2);
  });

  it('uses the company’s current waiver for classes when the form names none, and reuses a waiver signed before', async () => {
    const reference = await createPurchase({ formId: null, status: 'confirmed' });
    const loaded = await page(reference);
    expect(loaded.waiver).toMatchObject({ id: classesWaiverId, title: 'Term classes waiver' });
    expect((await sign(reference, childIds[0]!)).json()).toMatchObject({ valid: true });
    // A later purchase finds Mia's waiver of this template (check) and marks it used (mark).
    const later = await createPurchase({ formId: null });
    const check = await t.app.inject({
      method: 'POST',
      url: `${api}/check?authhash=${company.authhash}`,
      payload: { id: later, child_id: childIds[0] },
    });
    expect(check.json()).toMatchObject({ valid: true, found: true });
    const mark = await t.app.inject({
      method: 'GET',
      url: `${api}/mark?authhash=${company.authhash}&guest_id=${childIds[0]}&hash=${later}&waiver_id=${check.json().id}`,
    });
    expect(mark.json()).toMatchObject({ valid: true });
    expect((await page(later)).people.map((p: { status: string }) => p.status)).toEqual(['signed', 'needed']);
  });

  it('says the link is invalid for a cancelled purchase, an unknown reference, or another company’s authhash; signs nothing', async () => {
    const cancelled = await createPurchase({ formId: null, status: 'cancelled' });
    const live = await createPurchase({ formId: null });
    const count = async () => (await t.database.db.select().from(signedWaivers)).length;
    const before = await count();
    for (const [reference, authhash] of [
      [cancelled, company.authhash],
      ['nothing-here', company.authhash],
      [live, other.authhash],
    ] as const) {
      expect(await page(reference, authhash)).toMatchObject({
        valid: false,
        message: waiverMessages.invalidLink,
      });
      expect((await sign(reference, childIds[1]!, authhash)).json()).toMatchObject({
        valid: false,
        error: { html_message: waiverMessages.invalidLink },
      });
    }
    expect(await count()).toBe(before);
  });
});
