import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { type CompanyRow, createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { registrationForms } from '../registration/registration.tables.ts';
import { children } from '../students/students.tables.ts';
import { placesLeft } from './capacity.service.ts';
import { trialFollowUps } from './class-waitlist.tables.ts';
import { classEnrolments, termClasses } from './classes.tables.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from './enrolments.tables.ts';
import { followUpTrials, releaseLapsedHolds } from './holds.service.ts';

describe('trial conversion links', () => {
  let t: TestContext;
  let company: CompanyRow;
  let today: string;

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db);
    today = todayIn(company.timeZone);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;

  /** A class with a session two days ago (the trial's) and two to come. */
  async function classWithTrial(capacity = 10) {
    const dates = [addDays(today, -2), addDays(today, 5), addDays(today, 12)];
    const made = await createClassWithSessions(db(), company.id, { coachId: null, dates });
    await db().update(termClasses).set({ capacity }).where(eq(termClasses.id, made.termClass.id));
    const parent = await createUser(db(), company.id, { role: 'student', fullName: 'Tess Trial' });
    const [kid] = await db()
      .insert(children)
      .values({
        companyId: company.id,
        parentId: parent.id,
        firstName: 'Tia',
        lastName: 'Trial',
        dob: '2022-01-01',
      })
      .returning();
    const [trial] = await db()
      .insert(classEnrolments)
      .values({
        companyId: company.id,
        termClassId: made.termClass.id,
        childId: kid!.id,
        kind: 'trial',
        sessionId: made.sessions[0]!.id,
      })
      .returning();
    return { ...made, dates, parent, kid: kid!, trial: trial! };
  }

  const holdsOf = (termClassId: number) =>
    db()
      .select()
      .from(classEnrolments)
      .where(
        and(eq(classEnrolments.termClassId, termClassId), eq(classEnrolments.heldFor, 'trial_conversion')),
      );

  const mailsTo = (email: string) =>
    db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'class-trial-follow-up'), eq(mailOutbox.toAddress, email)));

  it('after the trial, holds a place from the next session for 48 hours and mails the Enrol link once', async () => {
    const cls = await classWithTrial();
    // A trial still to come is not followed up.
    const [later] = await db()
      .insert(classEnrolments)
      .values({
        companyId: company.id,
        termClassId: cls.termClass.id,
        childId: cls.kid.id,
        kind: 'trial',
        sessionId: cls.sessions[1]!.id,
      })
      .returning();

    // Two workers at once, then a later run: one hold, one mail.
    await Promise.all([followUpTrials(t.deps), followUpTrials(t.deps)]);
    await followUpTrials(t.deps);
    const holds = await holdsOf(cls.termClass.id);
    expect(holds).toHaveLength(1);
    const hold = holds[0]!;
    expect(hold).toMatchObject({
      status: 'pending',
      kind: 'enrolled',
      childId: cls.kid.id,
      startsOn: cls.dates[1],
    });
    const hours = (hold.holdExpiresAt!.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(47.9);
    expect(hours).toBeLessThanOrEqual(48);
    const mails = await mailsTo(cls.parent.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(
      `http://tumble.test/registration/accept/?token=${hold.holdToken}&authhash=${company.authhash}`,
    );
    expect(mails[0]!.text).toContain('Tia');
    const followUps = await db()
      .select()
      .from(trialFollowUps)
      .where(eq(trialFollowUps.companyId, company.id));
    expect(followUps.map((f) => [f.trialEnrolmentId, f.holdEnrolmentId])).toEqual([[cls.trial.id, hold.id]]);
    expect(followUps.some((f) => f.trialEnrolmentId === later!.id)).toBe(false);

    // The held place counts: a class of 10 with the later trial and the hold has 8 left.
    expect(
      (await placesLeft(db(), new Tenant(company.id), [cls.termClass.id], today)).get(cls.termClass.id),
    ).toBe(8);

    // Not taken up in 48 hours: the job releases it, and no second mail follows.
    await db()
      .update(classEnrolments)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(classEnrolments.id, hold.id));
    expect(await releaseLapsedHolds(t.deps)).toBe(1);
    expect((await holdsOf(cls.termClass.id))[0]!.status).toBe('cancelled');
    await followUpTrials(t.deps);
    expect(await mailsTo(cls.parent.email)).toHaveLength(1);
  });

  it('a full class after the trial: followed up once without a hold or a mail', async () => {
    const cls = await classWithTrial(1);
    const other = await createUser(db(), company.id, { role: 'student' });
    const [kid] = await db()
      .insert(children)
      .values({
        companyId: company.id,
        parentId: other.id,
        firstName: 'Una',
        lastName: 'Full',
        dob: '2022-01-01',
      })
      .returning();
    await db()
      .insert(classEnrolments)
      .values({ companyId: company.id, termClassId: cls.termClass.id, childId: kid!.id, kind: 'enrolled' });
    await followUpTrials(t.deps);
    expect(await holdsOf(cls.termClass.id)).toHaveLength(0);
    expect(await mailsTo(cls.parent.email)).toHaveLength(0);
    const [followUp] = await db()
      .select()
      .from(trialFollowUps)
      .where(eq(trialFollowUps.trialEnrolmentId, cls.trial.id));
    expect(followUp!.holdEnrolmentId).toBeNull();
  });

  it('the Enrol link pays through the form the trial was booked through', async () => {
    const cls = await classWithTrial();
    const form = (key: string, name: string) =>
      db()
        .insert(registrationForms)
        .values({ companyId: company.id, key, name, termIds: [cls.term.id], published: true })
        .returning();
    await form(`a-${cls.termClass.id}`, 'A first form');
    const [trialForm] = await form(`z-${cls.termClass.id}`, 'Z trial form');
    const [purchase] = await db()
      .insert(enrolmentPurchases)
      .values({
        companyId: company.id,
        parentId: cls.parent.id,
        reference: `ref-${cls.trial.id}`,
        code: `EN-${cls.trial.id}`,
        status: 'confirmed',
        pricing: { total: 1000 },
        total: 1000,
        registrationFormId: trialForm!.id,
      })
      .returning();
    await db()
      .insert(enrolmentPurchaseItems)
      .values({ companyId: company.id, purchaseId: purchase!.id, enrolmentId: cls.trial.id, amount: 1000 });
    await followUpTrials(t.deps);
    const [hold] = await holdsOf(cls.termClass.id);
    const view = await t.app.inject({
      method: 'GET',
      url: `/api/v1/registration/holds?authhash=${company.authhash}&token=${hold!.holdToken}`,
      headers: (await sessionFor(db(), cls.parent)).headers,
    });
    expect(view.json()).toMatchObject({
      status: 'open',
      held_for: 'trial_conversion',
      form_key: trialForm!.key,
    });
  });
});
