import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { addDays, zonedInstant } from '../../platform/time.ts';
import { createBookableEvent, FUTURE_MONDAY } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';

/** "Add to Google Calendar" links in the confirmation mails (issue 16, SPEC integrations/google). */
describe('Add to Google Calendar links in confirmation mails', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test', timeZone: 'Australia/Sydney' });
  });
  afterAll(() => t.close());

  const parent = async () => {
    const user = await createUser(t.database.db, company.id, { role: 'student' });
    return { user, headers: (await sessionFor(t.database.db, user)).headers };
  };
  const pay = (session: string) =>
    t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session, card_number: '4242424242424242' },
    });
  const mailOf = async (to: string, kind: string) => {
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.kind, kind)));
    return mail!;
  };
  /** The Google links of a mail's text, parsed. */
  const googleLinks = (text: string) =>
    [...text.matchAll(/https:\/\/calendar\.google\.com\/calendar\/render\?\S+/g)].map((m) => new URL(m[0]));
  const utc = (date: string, time: string) =>
    zonedInstant(date, time, 'Australia/Sydney')
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');

  it('an event booking mail links each booked day with its times in UTC', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const p = await parent();
    const tuesday = addDays(FUTURE_MONDAY, 1);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/booking/checkout?authhash=${company.authhash}`,
      headers: p.headers,
      payload: {
        event_id: fixture.event.id,
        quantity: 1,
        booked: [fixture.cell(), fixture.cell(tuesday)],
        waiting: [],
        children: [
          { first_name: 'Ada', last_name: 'Lovelace', dob: '2018-04-01', insurance_type: 'daily_insurance' },
        ],
        amount: 2 * (4500 + 300),
        accept_terms: true,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await pay(response.json().sessionId)).statusCode).toBe(200);
    const mail = await mailOf(p.user.email, 'booking-confirmation');
    expect(mail.text).toContain('Add to Google Calendar:');
    const links = googleLinks(mail.text);
    expect(links.map((l) => l.searchParams.get('dates'))).toEqual([
      `${utc(FUTURE_MONDAY, '09:00')}/${utc(FUTURE_MONDAY, '12:00')}`,
      `${utc(tuesday, '09:00')}/${utc(tuesday, '12:00')}`,
    ]);
    expect(links[0]!.searchParams.get('action')).toBe('TEMPLATE');
    expect(links[0]!.searchParams.get('text')).toBe('Holiday Camp: Morning');
  });

  it('a party mail links the party from the slot’s start for its length', async () => {
    const setup = await createPartySetup(t.database.db, company.id);
    const p = await parent();
    const date = addDays(new Date().toISOString().slice(0, 10), 20);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/birthday-party/booking/checkout?authhash=${company.authhash}`,
      headers: p.headers,
      payload: {
        slot_id: setup.morning.id,
        date,
        quantity: 12,
        amount: 10000,
        student: { first_name: 'Ivy', last_name: 'Birthday', dob: '2019-06-01' },
        accept_terms: true,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await pay(response.json().sessionId)).statusCode).toBe(200);
    const mail = await mailOf(p.user.email, 'party-confirmation');
    const [link] = googleLinks(mail.text);
    expect(link!.searchParams.get('dates')).toBe(`${utc(date, '10:00')}/${utc(date, '12:00')}`);
    expect(link!.searchParams.get('text')).toBe(`Birthday party at ${company.name}`);
  });
});
