import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { Tenant } from '../tenancy.ts';
import { onCardSetupNotice } from './notices.ts';
import type { CardSetupRequest, PaymentProvider, ProviderName } from './provider.ts';
import { providerFor } from './registry.ts';
import { type SquareStub, start } from './testing/square-stub.ts';

// Square has no hosted "save a card" page: ours (/payments/square-card) tokenizes the card with
// Square's Web Payments SDK and posts the token; the server saves it on the family's customer.
// The whole server side runs here against the local Square stub (the browser SDK cannot run here).

describe('square provider: saving a card through our card page', () => {
  let stub: SquareStub;
  let t: TestContext;
  let tenant: Tenant;
  let provider: PaymentProvider;
  const notices: { provider: ProviderName; sessionId: string }[] = [];

  beforeAll(async () => {
    stub = await start();
    t = await createTestApp({
      SQUARE_ACCESS_TOKEN: stub.accessToken,
      SQUARE_LOCATION_ID: stub.locationId,
      SQUARE_WEBHOOK_SIGNATURE_KEY: stub.signatureKey,
      SQUARE_BASE_URL: stub.url,
      SQUARE_APPLICATION_ID: 'sandbox-sq0idb-stub',
    });
    tenant = new Tenant((await createCompany(t.database.db, { name: 'Bounce Gymnastics' })).id);
    provider = providerFor(t.deps, tenant, 'square');
    onCardSetupNotice(async (_deps, name, sessionId) => {
      notices.push({ provider: name, sessionId });
    });
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  const request = (customerRef: string | null = null): CardSetupRequest => ({
    reference: 'autopay-12',
    customerEmail: 'pat@example.test',
    customerName: 'Pat van Parent',
    customerRef,
    returnUrl: 'http://tumble.test/account/autopay?saved=1',
  });

  const post = (session: string, sourceId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/integrations/square/card-setup',
      payload: { session, source_id: sourceId },
    });

  it('sends the parent to our card page, which has what the Web Payments SDK needs', async () => {
    const setup = await provider.startCardSetup(request());
    expect(setup).toEqual({
      kind: 'redirect',
      sessionId: expect.stringMatching(/^sqcs_/),
      url: `http://tumble.test/payments/square-card?session=${setup.sessionId}`,
    });
    const page = await t.app.inject({ url: `/integrations/square/card-setup?session=${setup.sessionId}` });
    expect(page.json()).toEqual({
      session: setup.sessionId,
      status: 'open',
      return_url: 'http://tumble.test/account/autopay?saved=1',
      company: 'Bounce Gymnastics',
      application_id: 'sandbox-sq0idb-stub',
      location_id: stub.locationId,
      environment: 'sandbox',
    });
    expect(await provider.getCardSetup(setup.sessionId)).toBeNull();
  });

  it("saves the token's card on a new customer, notices it, and reads the card from Square", async () => {
    const setup = await provider.startCardSetup(request());

    const refused = await post(setup.sessionId, 'cnon:card-nonce-declined');
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({ message: 'Card declined.' });
    expect(await provider.getCardSetup(setup.sessionId)).toBeNull();
    expect(notices).not.toContainEqual({ provider: 'square', sessionId: setup.sessionId });

    const saved = await post(setup.sessionId, 'cnon:card-nonce-ok');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ redirect: 'http://tumble.test/account/autopay?saved=1' });
    expect(notices).toContainEqual({ provider: 'square', sessionId: setup.sessionId });

    const customer = stub.requests.filter((r) => r.path === '/v2/customers').at(-1);
    expect(customer?.body).toMatchObject({
      given_name: 'Pat',
      family_name: 'van Parent',
      email_address: 'pat@example.test',
      reference_id: 'autopay-12',
    });
    const card = await provider.getCardSetup(setup.sessionId);
    expect(card).toEqual({
      customerRef: expect.any(String),
      cardRef: expect.stringMatching(/^ccof:/),
      brand: 'visa',
      last4: '1111',
      expMonth: 11,
      expYear: new Date().getFullYear() + 4,
    });
    expect(stub.cards.get(card!.cardRef)?.customer_id).toBe(card!.customerRef);

    // Saved: the page takes no second card.
    expect((await post(setup.sessionId, 'cnon:card-nonce-ok')).statusCode).toBe(409);
    // The card charges off-session.
    expect(
      await provider.chargeSavedCard({
        ...card!,
        amount: 5_000,
        currency: 'AUD',
        description: 'Term',
        reference: 'INV-1',
        idempotencyKey: 'sq-setup-charge',
      }),
    ).toMatchObject({ status: 'paid' });
  });

  it("keeps the family's customer when it has one", async () => {
    const customers = stub.customers.size;
    const existing = [...stub.customers.keys()][0]!;
    const setup = await provider.startCardSetup(request(existing));
    expect((await post(setup.sessionId, 'cnon:card-nonce-ok')).statusCode).toBe(200);
    expect(stub.customers.size).toBe(customers);
    expect(await provider.getCardSetup(setup.sessionId)).toMatchObject({ customerRef: existing });
  });

  it('answers 404 for an unknown session', async () => {
    expect((await post('sqcs_nope', 'cnon:card-nonce-ok')).statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: '/integrations/square/card-setup?session=sqcs_nope' })).statusCode,
    ).toBe(404);
  });
});
