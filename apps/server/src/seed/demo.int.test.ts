import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users } from '../features/accounts/accounts.tables.ts';
import { eventSessions, events } from '../features/events/events.tables.ts';
import { partySlots } from '../features/parties/parties.tables.ts';
import { createTestApp, type TestContext } from '../testing/harness.ts';
import { DEMO, demoEventCode, seedDemo } from './demo.ts';

describe('demo data', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const counts = async () => {
    const { db } = t.database;
    const n = async (
      table: typeof companies | typeof users | typeof events | typeof eventSessions | typeof partySlots,
    ) => (await db.select({ n: count() }).from(table))[0]!.n;
    return {
      companies: await n(companies),
      users: await n(users),
      events: await n(events),
      sessions: await n(eventSessions),
      slots: await n(partySlots),
    };
  };

  it('creates the demo company once; a second start changes nothing', async () => {
    const first = await seedDemo(t.database.db, t.config);
    expect(first.created).toBe(true);
    const after = await counts();
    // Users: admin, parent, a family, two coaches and four class families (classes-demo.ts); the
    // installation's company with its operator and a company waiting for approval (operator-demo.ts).
    expect(after).toEqual({ companies: 3, users: 11, events: 2, sessions: 3, slots: 3 });
    const second = await seedDemo(t.database.db, t.config);
    expect(second.created).toBe(false);
    expect(await counts()).toEqual(after);
  });

  it('lets the documented logins sign in and prints the public links', async () => {
    const admin = await t.app.inject({
      method: 'POST',
      url: '/rest',
      payload: { username: DEMO.admin.email, password: DEMO.admin.password },
    });
    expect(admin.statusCode).toBe(200);
    const parent = await t.app.inject({
      method: 'POST',
      url: '/rest',
      payload: { username: DEMO.parent.email, password: DEMO.parent.password, authhash: DEMO.authhash },
    });
    expect(parent.statusCode).toBe(200);
    const { summary } = await seedDemo(t.database.db, t.config);
    expect(summary.join('\n')).toContain(`/booking?e=${demoEventCode(DEMO.events.camp)}&authhash=demo`);
    expect(Buffer.from(demoEventCode(1), 'hex').toString()).toBe('1|1');
  });

  it('has a nearly full day and a waitlist-only day on the public booking page', async () => {
    const days = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/booking/sessions?e=${demoEventCode(DEMO.events.camp)}&authhash=demo`,
      })
    ).json().days;
    const first = Object.keys(days).sort()[0]!;
    expect(days[first].find((s: { name: string }) => s.name === 'Full day')).toMatchObject({
      status: 'bookable',
      available: 1,
    });
    const ninja = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/booking/sessions?e=${demoEventCode(DEMO.events.ninja)}&authhash=demo`,
      })
    ).json().days;
    const ninjaFirst = Object.keys(ninja).sort()[0]!;
    expect(ninja[ninjaFirst][0]).toMatchObject({ status: 'full', available: 0 });
    expect(ninja[Object.keys(ninja).sort()[1]!][0]).toMatchObject({ status: 'bookable', available: 2 });
  });

  it('keeps later companies clear of the fixed ids', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/companies/signup',
      payload: {
        company_name: 'Next Gym',
        full_name: 'Nat',
        email: 'nat@next.test',
        password: 'a long passphrase',
      },
    });
    expect(response.json().valid).toBe(true);
  });
});
