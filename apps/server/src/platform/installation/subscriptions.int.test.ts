import { platformMessages } from '@tumble/contracts/platform';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../features/accounts/accounts.tables.ts';
import { children } from '../../features/students/students.tables.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { plans } from './installation.tables.ts';
import { statusNow, subscriptionSummaries } from './subscriptions.service.ts';
import { subscriptionEvents, subscriptions } from './subscriptions.tables.ts';
import { type StripeBillingStub, startStripeBillingStub } from './testing/stripe-billing-stub.ts';

type Headers = Record<string, string>;

const child = (n: number) => ({ first_name: `Kid${n}`, last_name: 'Limit', dob: '2018-01-01' });

async function makePlans(t: TestContext, tag: string) {
  const [small, big] = await t.database.db
    .insert(plans)
    .values([
      {
        name: `Starter ${tag}`,
        monthlyPrice: 4900,
        modules: ['events', 'parties'],
        maxChildren: 2,
        maxStaff: 2,
        trialDays: 14,
        stripePriceId: `price_starter_${tag}`,
      },
      {
        name: `Growth ${tag}`,
        monthlyPrice: 9900,
        modules: ['events', 'parties', 'classes'],
        maxChildren: 100,
        maxStaff: 10,
        trialDays: 14,
        stripePriceId: `price_growth_${tag}`,
      },
    ])
    .returning();
  return { small: small!, big: big! };
}

describe('subscriptions and plan limits (test provider)', () => {
  let t: TestContext;
  let company: { id: number };
  let admin: Headers;
  let parent: Headers;
  let small: typeof plans.$inferSelect;
  let big: typeof plans.$inferSelect;

  const post = (url: string, headers: Headers, payload: object) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
  const childCount = async () =>
    (await t.database.db.select().from(children).where(eq(children.companyId, company.id))).length;

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    company = await createCompany(db);
    admin = (await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' }))).headers;
    parent = (await sessionFor(db, await createUser(db, company.id, { role: 'student' }))).headers;
    ({ small, big } = await makePlans(t, 'test'));
  });
  afterAll(() => t.close());

  it('the admin picks a plan: its trial starts, the page shows it, the operator summary has it, audited', async () => {
    const before = (await get('/api/v1/admin/subscription', admin)).json();
    expect(before.current).toBeNull();
    expect(before.plans.map((p: { name: string }) => p.name)).toEqual([small.name, big.name]);

    const picked = await post('/api/v1/admin/subscription', admin, { plan_id: small.id });
    expect(picked.statusCode).toBe(200);
    expect(picked.json()).toEqual({ message: `Your plan is now ${small.name}.`, checkout_url: null });

    const page = (await get('/api/v1/admin/subscription', admin)).json();
    expect(page.current).toMatchObject({ plan_name: small.name, status: 'trialing' });
    expect(page.current.trial_ends_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const summary = (await subscriptionSummaries(t.database.db)).get(company.id);
    expect(summary).toMatchObject({ planName: small.name, status: 'trialing' });
    expect(summary?.trialEndsAt).not.toBeNull();

    const audit = await t.database.db.execute<{ action: string }>(
      sql`select action from audit_log where company_id = ${company.id} and entity = 'subscription'`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['subscription.start']);

    // The plan's modules now bound the company's: classes is not in Starter.
    expect((await get('/api/v1/admin/timetable', admin)).statusCode).toBe(404);
  });

  it('an archived or unknown plan cannot be picked', async () => {
    const [archived] = await t.database.db
      .insert(plans)
      .values({ name: 'Old plan', archivedAt: new Date() })
      .returning();
    for (const id of [archived!.id, 999_999]) {
      const response = await post('/api/v1/admin/subscription', admin, { plan_id: id });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(platformMessages.unknownPlan);
    }
  });

  it('the child over the limit is refused with the limit and the plan to move to; nothing is lost', async () => {
    expect((await post('/api/v1/students/children', parent, child(1))).json().valid).toBe(true);
    expect((await post('/api/v1/students/children', parent, child(2))).json().valid).toBe(true);
    const third = await post('/api/v1/students/children', parent, child(3));
    expect(third.statusCode).toBe(400);
    expect(third.json().message).toBe(
      `Your plan allows 2 children. To add more, move to ${big.name} on the Subscription page.`,
    );
    expect(await childCount()).toBe(2);
  });

  it('the staff user over the limit is refused the same way', async () => {
    await createUser(t.database.db, company.id, { role: 'companystaff' });
    const invite = await post('/api/v1/admin/users', admin, {
      full_name: 'One Too Many',
      email: 'too-many@example.test',
      role: 'companystaff',
    });
    expect(invite.statusCode).toBe(400);
    expect(invite.json().message).toBe(
      `Your plan allows 2 staff users. To add more, move to ${big.name} on the Subscription page.`,
    );
  });

  it('enabling a disabled staff member over the limit is refused; the row is kept as it was', async () => {
    const { db } = t.database;
    const resting = await createUser(db, company.id, { role: 'companycoach', status: 'disabled' });
    const enable = await post(`/api/v1/admin/users/${resting.id}`, admin, {
      full_name: 'Resting Coach',
      role: 'companycoach',
      status: 'active',
    });
    expect(enable.statusCode).toBe(400);
    expect(enable.json().message).toBe(
      `Your plan allows 2 staff users. To add more, move to ${big.name} on the Subscription page.`,
    );
    const [row] = await db.select().from(users).where(eq(users.id, resting.id));
    expect(row?.status).toBe('disabled');
  });

  it('moving to a smaller plan is allowed, keeps every row and shows the banner', async () => {
    expect((await post('/api/v1/admin/subscription', admin, { plan_id: big.id })).statusCode).toBe(200);
    expect((await post('/api/v1/students/children', parent, child(3))).json().valid).toBe(true);
    expect((await get('/api/v1/admin/plan-limits', admin)).json().over_limit).toBeNull();

    const smaller = await post('/api/v1/admin/subscription', admin, { plan_id: small.id });
    expect(smaller.statusCode).toBe(200);
    expect(await childCount()).toBe(3);
    const banner = (await get('/api/v1/admin/plan-limits', admin)).json().over_limit;
    expect(banner).toBe(
      `You have 3 children. Your plan allows 2 children. To add more, move to ${big.name} on the Subscription page. Nothing has been removed.`,
    );
    expect((await get('/api/v1/admin/subscription', admin)).json().over_limit).toBe(banner);
    // The trial the company started with is kept across changes of plan.
    expect((await get('/api/v1/admin/subscription', admin)).json().current.status).toBe('trialing');
  });

  it('a company without a plan has no limits', async () => {
    const { db } = t.database;
    const free = await createCompany(db);
    const freeParent = (await sessionFor(db, await createUser(db, free.id, { role: 'student' }))).headers;
    for (let n = 1; n <= 3; n++)
      expect((await post('/api/v1/students/children', freeParent, child(n))).json().valid).toBe(true);
  });
});

describe('subscriptions through Stripe Billing (stub)', () => {
  let t: TestContext;
  let stub: StripeBillingStub;
  let company: { id: number };
  let admin: Headers;
  let small: typeof plans.$inferSelect;
  let big: typeof plans.$inferSelect;

  const deliver = (delivery: { payload: string; signature: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/integrations/installation-stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
      payload: delivery.payload,
    });
  const row = async () =>
    (await t.database.db.select().from(subscriptions).where(eq(subscriptions.companyId, company.id)))[0];
  const subscriptionObject = (status: string, price: string, trialEnd: number | null = null) => ({
    id: 'sub_1',
    object: 'subscription',
    customer: 'cus_1',
    status,
    trial_end: trialEnd,
    metadata: { company_id: String(company.id) },
    items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item', price: { id: price } }] },
  });
  const invoiceObject = () => ({
    id: 'in_1',
    object: 'invoice',
    parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } },
  });

  beforeAll(async () => {
    stub = await startStripeBillingStub();
    t = await createTestApp({
      INSTALLATION_STRIPE_SECRET_KEY: stub.secretKey,
      INSTALLATION_STRIPE_WEBHOOK_SECRET: stub.webhookSecret,
      INSTALLATION_STRIPE_API_BASE: stub.url,
    });
    const { db } = t.database;
    company = await createCompany(db);
    admin = (await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' }))).headers;
    ({ small, big } = await makePlans(t, 'stripe'));
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  it('a first plan is a Checkout Session in subscription mode with the trial; nothing is stored yet', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/subscription',
      headers: admin,
      payload: { plan_id: big.id },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().checkout_url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const session = stub.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(session.body).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': big.stripePriceId,
      'subscription_data[trial_period_days]': '14',
      'subscription_data[metadata][company_id]': String(company.id),
      success_url: 'http://tumble.test/admin/subscription?status=done',
    });
    expect(await row()).toBeUndefined();
  });

  it('webhooks: created, then out-of-order and duplicate events change nothing twice; newest wins', async () => {
    const trialEnd = 2_000_000_000;
    const created = stub.event('evt_created', 'customer.subscription.created', 1000, {
      ...subscriptionObject('trialing', big.stripePriceId!, trialEnd),
    });
    expect((await deliver(created)).statusCode).toBe(200);
    expect(await row()).toMatchObject({
      planId: big.id,
      status: 'trialing',
      subscriptionRef: 'sub_1',
      customerRef: 'cus_1',
      lastEventAt: 1000,
    });
    expect((await row())!.trialEndsAt?.getTime()).toBe(trialEnd * 1000);

    // Newer: the trial ended and the subscription is active.
    await deliver(
      stub.event(
        'evt_active',
        'customer.subscription.updated',
        2000,
        subscriptionObject('active', big.stripePriceId!),
      ),
    );
    expect((await row())!.status).toBe('active');
    // Older, arriving late (a retry of an earlier update): changes nothing.
    await deliver(
      stub.event(
        'evt_old',
        'customer.subscription.updated',
        1500,
        subscriptionObject('past_due', small.stripePriceId!),
      ),
    );
    expect(await row()).toMatchObject({ status: 'active', planId: big.id, lastEventAt: 2000 });

    // A failed payment, then a payment in the same second: the later delivery wins.
    await deliver(stub.event('evt_failed', 'invoice.payment_failed', 3000, invoiceObject()));
    expect((await row())!.status).toBe('past_due');
    await deliver(stub.event('evt_paid', 'invoice.paid', 3000, invoiceObject()));
    expect((await row())!.status).toBe('active');
    // The failed payment delivered again (Stripe retries): recorded once, applied once.
    const replay = await deliver(stub.event('evt_failed', 'invoice.payment_failed', 3000, invoiceObject()));
    expect(replay.statusCode).toBe(200);
    expect((await row())!.status).toBe('active');
    const recorded = await t.database.db
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.eventId, 'evt_failed'));
    expect(recorded).toHaveLength(1);

    // Cancelled at Stripe.
    await deliver(
      stub.event(
        'evt_deleted',
        'customer.subscription.deleted',
        4000,
        subscriptionObject('canceled', big.stripePriceId!),
      ),
    );
    expect((await row())!.status).toBe('cancelled');
    expect((await subscriptionSummaries(t.database.db)).get(company.id)?.status).toBe('cancelled');
  });

  it('a bad signature is refused and changes nothing', async () => {
    const forged = stub.event(
      'evt_forged',
      'customer.subscription.updated',
      9000,
      subscriptionObject('active', big.stripePriceId!),
    );
    const response = await deliver({ payload: forged.payload, signature: 't=1,v1=deadbeef' });
    expect(response.statusCode).toBe(400);
    expect((await row())!.status).toBe('cancelled');
  });

  it('changing the plan of a live subscription moves the Stripe subscription to the new price', async () => {
    stub.subscriptions.set('sub_1', { price: big.stripePriceId!, status: 'active' });
    await deliver(
      stub.event(
        'evt_back',
        'customer.subscription.updated',
        5000,
        subscriptionObject('active', big.stripePriceId!),
      ),
    );
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/subscription',
      headers: admin,
      payload: { plan_id: small.id },
    });
    expect(response.json()).toEqual({ message: `Your plan is now ${small.name}.`, checkout_url: null });
    const update = stub.requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions/sub_1')!;
    expect(update.body).toMatchObject({ 'items[0][id]': 'si_sub_1', 'items[0][price]': small.stripePriceId });
    expect((await row())!.planId).toBe(small.id);
  });
});

describe('statusNow', () => {
  it("a test provider's trial is active once it has ended; Stripe's status is Stripe's", () => {
    const now = new Date('2030-01-10T00:00:00Z');
    const ended = new Date('2030-01-09T00:00:00Z');
    const later = new Date('2030-01-11T00:00:00Z');
    expect(statusNow({ status: 'trialing', provider: 'test', trialEndsAt: ended }, now)).toBe('active');
    expect(statusNow({ status: 'trialing', provider: 'test', trialEndsAt: later }, now)).toBe('trialing');
    expect(statusNow({ status: 'trialing', provider: 'stripe', trialEndsAt: ended }, now)).toBe('trialing');
    expect(statusNow({ status: 'past_due', provider: 'test', trialEndsAt: null }, now)).toBe('past_due');
  });
});
