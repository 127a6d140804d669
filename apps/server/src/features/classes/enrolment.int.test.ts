import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { messages } from '@tumble/contracts/messages';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverPendingMail } from '../../platform/mail/mail.service.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { nswSettings } from '../billing/billing.tables.ts';
import { registrationAnomalies, registrationForms } from '../registration/registration.tables.ts';
import { children } from '../students/students.tables.ts';
import { classEnrolments, classTypes, termClasses } from './classes.tables.ts';
import { voucherMessages } from './enrolment-pricing.ts';
import { purchaseByReference } from './enrolment-purchases.service.ts';
import { enrolmentMessages } from './enrolment-sale.ts';
import { enrolmentVouchers } from './enrolment-vouchers.tables.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from './enrolments.tables.ts';

/** The class enrolment checkout (issue 14) through HTTP, against the real database. */
describe('class enrolment checkout', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let tenant: Tenant;
  let formKey: string;
  let formId: number;
  let termId: number;
  const today = todayIn('Australia/Sydney');
  // Weekly sessions from next week: every session is still ahead.
  const dates = Array.from({ length: 8 }, (_, i) => addDays(today, 7 + i * 7));

  const newParent = async () => {
    const user = await createUser(t.database.db, company.id, { role: 'student' });
    return { user, ...(await sessionFor(t.database.db, user)) };
  };
  const childOf = async (parentId: number, firstName = 'Ava', dob = '2021-03-01') => {
    const [row] = await t.database.db
      .insert(children)
      .values({ companyId: company.id, parentId, firstName, lastName: 'Enrol', dob })
      .returning();
    return row!.id;
  };
  /** A class of the form's term: $20 a session, trials $15, for 3 to 6 year olds. */
  const newClass = async (capacity = 10, name = 'Kinder Gym Tuesday') => {
    const made = await createClassWithSessions(t.database.db, company.id, { coachId: null, dates, name });
    await t.database.db
      .update(classTypes)
      .set({ price: 2000, trialAllowed: true, trialPrice: 1500, ageMinMonths: 36, ageMaxMonths: 72 })
      .where(eq(classTypes.id, made.type.id));
    // Every class of these tests belongs to the form's one term.
    await t.database.db
      .update(termClasses)
      .set({ capacity, termId })
      .where(eq(termClasses.id, made.termClass.id));
    return made;
  };
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${url}?authhash=${company.authhash}`, payload, headers });
  const quote = async (body: object, headers: Record<string, string> = {}) => {
    const response = await post('/api/v1/registration/quote', body, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  /** A checkout priced by the quote first (as the page does). */
  const enrol = async (headers: Record<string, string>, body: Record<string, unknown>) => {
    const { amount_due } = await quote(body, headers);
    return post(
      '/api/v1/registration/checkout',
      { accept_terms: true, amount: amount_due, ...body },
      headers,
    );
  };
  const pay = (sessionId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session: sessionId, card_number: '4242424242424242' },
    });
  const placesIn = async (termClassId: number) =>
    t.database.db
      .select()
      .from(classEnrolments)
      .where(and(eq(classEnrolments.termClassId, termClassId)));
  const answers = [{ school: 'Bondi Public' }];

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    company = await createCompany(db, { timeZone: 'Australia/Sydney', paymentMethod: 'test' });
    tenant = new Tenant(company.id);
    const first = await createClassWithSessions(db, company.id, { coachId: null, dates });
    termId = first.term.id;
    const [form] = await db
      .insert(registrationForms)
      .values({
        companyId: company.id,
        key: 'term-classes',
        name: 'Term classes',
        termIds: [termId],
        trialsOffered: true,
        questions: [{ key: 'school', label: 'School', kind: 'school', required: true }],
      })
      .returning();
    formKey = form!.key;
    formId = form!.id;
  });

  afterAll(() => t.close());

  it('shows the form and finds classes by the child’s age with live places and the price', async () => {
    const made = await newClass(6, 'Finder Gym Monday');
    const form = await t.app.inject({
      method: 'GET',
      url: `/api/v1/registration/form?f=${formKey}&authhash=${company.authhash}`,
    });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json().form).toMatchObject({ name: 'Term classes', trials_offered: true });
    const find = async (dob: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/registration/classes?f=${formKey}&authhash=${company.authhash}&dob=${dob}`,
        })
      ).json().classes as {
        id: number;
        places_left: number;
        price: number;
        trial: { price: number } | null;
      }[];
    const found = (await find('2021-03-01')).find((c) => c.id === made.termClass.id);
    expect(found).toMatchObject({ places_left: 6, price: 8 * 2000, trial: { price: 1500 } });
    // A baby is too young for a 3 to 6 year olds' class.
    expect((await find(addDays(today, -200))).some((c) => c.id === made.termClass.id)).toBe(false);
    const missing = await t.app.inject({
      method: 'GET',
      url: `/api/v1/registration/form?f=nope&authhash=${company.authhash}`,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(enrolmentMessages.formNotFound);
  });

  it('enrols and books a trial, pays by card, and the places become active with a mail and its calendar file', async () => {
    const { termClass, sessions } = await newClass();
    const parent = await newParent();
    const ava = await childOf(parent.user.id);
    const body = {
      f: formKey,
      children: [{ id: ava }, { first_name: 'Ben', last_name: 'Enrol', dob: '2020-05-05' }],
      choices: [
        { child: 0, term_class_id: termClass.id, kind: 'enrolled' },
        { child: 1, term_class_id: termClass.id, kind: 'trial', session_id: sessions[1]!.id },
      ],
      answers: [{ school: 'Bondi Public' }, { school: 'Bondi Public' }],
    };
    const priced = await quote(body, parent.headers);
    expect(priced.pricing_details.place_0.label).toBe('Kinder Gym Tuesday 4:00pm × 8 sessions');
    expect(priced.amount_due).toBe(8 * 2000 + 1500);
    const response = await enrol(parent.headers, body);
    expect(response.statusCode, response.body).toBe(200);
    const { booking_hash, sessionId } = response.json();
    const held = await placesIn(termClass.id);
    expect(held.map((p) => [p.kind, p.status, p.heldFor])).toEqual([
      ['enrolled', 'pending', 'checkout'],
      ['trial', 'pending', 'checkout'],
    ]);
    expect((await pay(sessionId)).statusCode).toBe(200);
    const summary = await purchaseByReference(t.database.db, tenant, booking_hash);
    expect(summary).toMatchObject({ status: 'confirmed', parentId: parent.user.id, formId });
    expect(summary!.childIds).toContain(ava);
    expect((await placesIn(termClass.id)).map((p) => p.status)).toEqual(['active', 'active']);
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, parent.user.email), eq(mailOutbox.kind, 'enrolment-confirmation')));
    expect(mail!.text).toContain('Kinder Gym Tuesday 4:00pm');
    expect(mail!.data.ics!.match(/BEGIN:VEVENT/g)).toHaveLength(9);
    // 4:00pm in Sydney is 05:00 or 06:00 UTC (summer or winter time).
    expect(mail!.data.ics).toMatch(/DTSTART:\d{8}T0[56]0000Z/);
    // Without SMTP the mail is written as an .eml file: the calendar file is attached to it.
    await deliverPendingMail(t.database, t.config);
    const [written] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, mail!.id));
    const eml = await readFile(path.join(t.config.mailDir, written!.file!), 'utf8');
    expect(eml).toMatch(/Content-Type: text\/calendar[\s\S]*filename=classes\.ics/);
    const confirmation = await t.app.inject({
      method: 'GET',
      url: `/api/v1/registration/purchase?id=${booking_hash}&authhash=${company.authhash}`,
    });
    expect(confirmation.json().places).toHaveLength(2);
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/students/enrolments',
      headers: parent.headers,
    });
    expect(mine.json().purchases[0]).toMatchObject({ status: 'confirmed', children: ['Ava', 'Ben'] });
  });

  it('holds exactly the last 10 places when 100 families check out at once', async () => {
    const { termClass } = await newClass(12, 'Rush Gym Wednesday');
    const { db } = t.database;
    // Two places already taken: ten left.
    const early = await newParent();
    for (const name of ['Early', 'Earlier'])
      await db.insert(classEnrolments).values({
        companyId: company.id,
        termClassId: termClass.id,
        childId: await childOf(early.user.id, name),
        kind: 'enrolled',
        status: 'active',
      });
    const families = await Promise.all(Array.from({ length: 100 }, () => newParent()));
    const body = (i: number) => ({
      f: formKey,
      children: [{ first_name: `Rush${i}`, last_name: 'Family', dob: '2021-01-01' }],
      choices: [{ child: 0, term_class_id: termClass.id, kind: 'enrolled' }],
      answers,
    });
    const { amount_due } = await quote(body(0));
    const responses = await Promise.all(
      families.map((f, i) =>
        post(
          '/api/v1/registration/checkout',
          { ...body(i), accept_terms: true, amount: amount_due },
          f.headers,
        ),
      ),
    );
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 409)).toHaveLength(90);
    const refused = responses.find((r) => r.statusCode === 409)!;
    expect(refused.json().message).toBe('Sorry, Rush Gym Wednesday 4:00pm is now full.');
    const places = await placesIn(termClass.id);
    expect(places.filter((p) => p.status === 'active' || p.status === 'pending')).toHaveLength(12);
  });

  it('takes up the held places of a hold token instead of new ones, without counting them twice', async () => {
    const { termClass } = await newClass(1, 'Offer Gym Thursday');
    const parent = await newParent();
    const ava = await childOf(parent.user.id);
    // The class's one place is held for this family by a waitlist offer.
    const [held] = await t.database.db
      .insert(classEnrolments)
      .values({
        companyId: company.id,
        termClassId: termClass.id,
        childId: ava,
        kind: 'enrolled',
        status: 'pending',
        heldFor: 'offer',
        holdToken: 'offer-token-1',
        holdExpiresAt: new Date(Date.now() + 3_600_000),
      })
      .returning();
    const body = {
      f: formKey,
      children: [{ id: ava }],
      choices: [{ child: 0, term_class_id: termClass.id, kind: 'enrolled' }],
      answers,
    };
    // Without the token the class is full.
    const refused = await enrol(parent.headers, body);
    expect(refused.statusCode).toBe(409);
    const taken = await enrol(parent.headers, { ...body, hold_token: 'offer-token-1' });
    expect(taken.statusCode, taken.body).toBe(200);
    const places = await placesIn(termClass.id);
    expect(places).toHaveLength(1);
    expect(places[0]).toMatchObject({ id: held!.id, status: 'pending', heldFor: 'checkout' });
    const [item] = await t.database.db
      .select()
      .from(enrolmentPurchaseItems)
      .where(eq(enrolmentPurchaseItems.enrolmentId, held!.id));
    expect(item).toBeDefined();
    expect((await pay(taken.json().sessionId)).statusCode).toBe(200);
    expect((await placesIn(termClass.id))[0]).toMatchObject({
      id: held!.id,
      status: 'active',
      heldFor: null,
    });
    // A token whose places are gone is refused.
    const again = await post(
      '/api/v1/registration/quote',
      { ...body, hold_token: 'offer-token-1' },
      parent.headers,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(enrolmentMessages.holdLapsed);
  });

  it('an NSW voucher never exceeds the fee and is used once per child per voucher period', async () => {
    const { db } = t.database;
    await db.insert(nswSettings).values({ companyId: company.id, enabled: true, voucherValue: 100_000 });
    const cheap = await newClass(10, 'Voucher Gym Friday');
    const other = await newClass(10, 'Voucher Gym Saturday');
    const parent = await newParent();
    const ava = await childOf(parent.user.id);
    const body = (termClassId: number, code: string) => ({
      f: formKey,
      children: [{ id: ava }],
      choices: [{ child: 0, term_class_id: termClassId, kind: 'enrolled' }],
      answers,
      nsw_coupon_code: code,
    });
    const priced = await quote(body(cheap.termClass.id, 'VOUCHER001'), parent.headers);
    // $1,000 voucher against a $160 fee: $160 off, nothing to pay.
    expect(priced.pricing_details.nsw_voucher.value).toBe(-16_000);
    expect(priced.amount_due).toBe(0);
    const first = await enrol(parent.headers, body(cheap.termClass.id, 'VOUCHER001'));
    expect(first.statusCode, first.body).toBe(200);
    const [use] = await db.select().from(enrolmentVouchers).where(eq(enrolmentVouchers.childId, ava));
    expect(use).toMatchObject({ code: 'VOUCHER001' });
    // Another voucher for the same child in the same period: refused, nothing written.
    const secondQuote = await quote(body(other.termClass.id, 'VOUCHER002'), parent.headers);
    expect(secondQuote.errors.invalid_nsw_coupon_code_message).toBe(voucherMessages.usedThisPeriod);
    const second = await post(
      '/api/v1/registration/checkout',
      { ...body(other.termClass.id, 'VOUCHER002'), accept_terms: true, amount: 16_000 },
      parent.headers,
    );
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toBe(voucherMessages.usedThisPeriod);
    expect(await placesIn(other.termClass.id)).toHaveLength(0);
  });

  it('answers 404 for another company’s class and writes nothing', async () => {
    const foreign = await createCompany(t.database.db);
    const theirs = await createClassWithSessions(t.database.db, foreign.id, { coachId: null, dates });
    const parent = await newParent();
    const before = await t.database.db.select({ n: count() }).from(enrolmentPurchases);
    const response = await post(
      '/api/v1/registration/checkout',
      {
        f: formKey,
        children: [{ first_name: 'Zed', last_name: 'Foreign', dob: '2021-01-01' }],
        choices: [{ child: 0, term_class_id: theirs.termClass.id, kind: 'enrolled' }],
        answers,
        accept_terms: true,
        amount: 0,
      },
      parent.headers,
    );
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(enrolmentMessages.classNotFound);
    expect(await t.database.db.select({ n: count() }).from(enrolmentPurchases)).toEqual(before);
    expect(await placesIn(theirs.termClass.id)).toHaveLength(0);
    const zed = await t.database.db.select().from(children).where(eq(children.firstName, 'Zed'));
    expect(zed).toHaveLength(0);
  });

  it('refuses bad input with the form’s messages and writes nothing', async () => {
    const { termClass } = await newClass(10, 'Strict Gym Sunday');
    const parent = await newParent();
    const ava = await childOf(parent.user.id);
    const base = {
      f: formKey,
      children: [{ id: ava }],
      choices: [{ child: 0, term_class_id: termClass.id, kind: 'enrolled' }],
      answers,
      amount: 16_000,
    };
    const cases: [object, string][] = [
      [base, messages.acceptTerms],
      [{ ...base, accept_terms: true, answers: [{}] }, 'Please answer “School” for Ava.'],
      [
        { ...base, accept_terms: true, children: [{ first_name: 'Ben', last_name: '', dob: '' }] },
        messages.newChildIncomplete(1),
      ],
      [{ ...base, accept_terms: true, choices: [] }, 'Please choose a class.'],
      [
        { ...base, accept_terms: true, choices: [{ child: 0, term_class_id: termClass.id, kind: 'trial' }] },
        enrolmentMessages.chooseTrialSession('Strict Gym Sunday 4:00pm'),
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await post('/api/v1/registration/checkout', payload, parent.headers);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect(await placesIn(termClass.id)).toHaveLength(0);
    // Unsigned visitors cannot pay.
    const anonymous = await post('/api/v1/registration/checkout', { ...base, accept_terms: true });
    expect([401, 403]).toContain(anonymous.statusCode);
  });

  it('refuses a family signing a child up twice and tells staff; notes ages outside the range and look-alike children', async () => {
    const { termClass } = await newClass(10, 'Twice Gym Monday');
    const parent = await newParent();
    const ava = await childOf(parent.user.id);
    const body = {
      f: formKey,
      children: [{ id: ava }],
      choices: [{ child: 0, term_class_id: termClass.id, kind: 'enrolled' }],
      answers,
    };
    const first = await enrol(parent.headers, body);
    expect(first.statusCode, first.body).toBe(200);
    const twice = await enrol(parent.headers, body);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(enrolmentMessages.twice('Ava', 'Twice Gym Monday 4:00pm'));
    const anomalies = () =>
      t.database.db
        .select()
        .from(registrationAnomalies)
        .where(eq(registrationAnomalies.parentId, parent.user.id));
    expect((await anomalies()).map((a) => a.kind)).toEqual(['family_signed_up_twice']);

    // A baby (too young for 3 to 6) goes through and is noted; so is a new child who looks like Ava.
    const other = await newClass(10, 'Baby Gym Tuesday');
    const baby = await childOf(parent.user.id, 'Babe', addDays(today, -300));
    const noted = await enrol(parent.headers, {
      f: formKey,
      children: [{ id: baby }, { first_name: 'ava', last_name: 'ENROL', dob: '2021-03-01' }],
      choices: [
        { child: 0, term_class_id: other.termClass.id, kind: 'enrolled' },
        { child: 1, term_class_id: other.termClass.id, kind: 'enrolled' },
      ],
      answers: [answers[0]!, answers[0]!],
    });
    expect(noted.statusCode, noted.body).toBe(200);
    const kinds = (await anomalies()).map((a) => [a.kind, a.otherId]);
    expect(kinds).toContainEqual(['age_outside_range', null]);
    // The look-alike is the company's first Ava Enrol born that day (an earlier test's, or this family's).
    const [firstAva] = await t.database.db
      .select({ id: children.id })
      .from(children)
      .where(and(eq(children.firstName, 'Ava'), eq(children.dob, '2021-03-01')))
      .orderBy(children.id)
      .limit(1);
    expect(kinds).toContainEqual(['possible_duplicate_child', firstAva!.id]);
    const held = await placesIn(other.termClass.id);
    expect(held).toHaveLength(2);
    expect(
      await t.database.db
        .select({ n: count() })
        .from(classEnrolments)
        .where(
          inArray(
            classEnrolments.id,
            held.map((h) => h.id),
          ),
        ),
    ).toEqual([{ n: 2 }]);
  });
});
