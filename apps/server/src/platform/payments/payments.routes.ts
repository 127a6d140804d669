import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { companyOf } from '../../features/accounts/accounts.service.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from '../input-guard.ts';
import { formatMoney } from '../money.ts';
import { Tenant } from '../tenancy.ts';
import { squareLocationOf, webhookMayAct } from './connections/connections.service.ts';
import { cardSetupNoticed, refundNoticed } from './notices.ts';
import { squareCardSetups, testCheckouts } from './payments.tables.ts';
import { type WebhookNotice, WebhookSignatureError } from './provider.ts';
import { providerFor, squareProviderFor } from './registry.ts';
import { cancelCheckout, settleCheckout } from './settlement.ts';
import { payTestCheckout, saveTestCard, testCardOutcome, testCheckoutCompany } from './test.ts';

/**
 * /integrations (platform/payments, beside the providers): payment provider webhooks (raw body, signature checked, idempotent), the card
 * form's cancel call, and the test provider's card page API.
 */
export const paymentRoutes: FastifyPluginAsync = async (app) => {
  // Signatures are over the exact bytes received: keep JSON bodies raw in this plugin.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  for (const provider of ['stripe', 'square'] as const) {
    app.post(
      `/integrations/${provider}/webhook`,
      { config: { access: 'public', rateLimit: false } },
      async (request, reply) => {
        if (!Buffer.isBuffer(request.body)) throw new BadRequestError('Expected a JSON body.');
        // Any tenant's provider object verifies the installation-wide signature; the session names the tenant.
        let notice: WebhookNotice | null;
        try {
          notice = await providerFor(app.deps, new Tenant(1), provider).parseWebhook(
            request.body,
            request.headers,
          );
        } catch (error) {
          if (error instanceof WebhookSignatureError) return reply.code(400).send({ message: error.message });
          throw error;
        }
        // A Connect event names its account, a Square event its merchant: only that company's checkouts.
        if (notice && !(await webhookMayAct(app.deps, provider, request.body, notice)))
          return { received: true };
        if (notice?.kind === 'checkout') await settleCheckout(app.deps, provider, notice.sessionId);
        if (notice?.kind === 'refund') await refundNoticed(app.deps, provider, notice.refundRef);
        if (notice?.kind === 'card_setup') await cardSetupNoticed(app.deps, provider, notice.sessionId);
        // 200 for events we do not handle too, so the provider stops retrying them.
        return { received: true };
      },
    );
  }

  app.post('/integrations/stripe/cancel-session', { config: { access: 'public' } }, async (request) => {
    const { session } = z.object({ session: z.string().min(1).max(300) }).parse(request.query);
    await cancelCheckout(app.deps, 'stripe', session);
    return { success: true };
  });

  const sessionQuery = z.object({ session: z.string().min(1).max(100) });
  async function testCheckout(session: string) {
    const companyId = await testCheckoutCompany(app.deps.database.db, session);
    if (!companyId) throw new NotFoundError();
    const tenant = new Tenant(companyId);
    const [row] = await app.deps.database.db
      .select()
      .from(testCheckouts)
      .where(tenant.where(testCheckouts, eq(testCheckouts.id, session)));
    return { tenant, row: row! };
  }

  app.get('/integrations/test/session', { config: { access: 'public' } }, async (request) => {
    const { session } = sessionQuery.parse(request.query);
    const { tenant, row } = await testCheckout(session);
    const company = await companyOf(app.deps.database.db, tenant);
    const unpaid = row.status === 'open' || row.status === 'failed';
    const expired = unpaid && row.expiresAt.getTime() <= Date.now();
    return {
      session: row.id,
      /** `setup`: the "save a card" page (no amount; Save card instead of Pay). */
      mode: row.mode,
      amount: row.amount,
      formatted: row.mode === 'setup' ? '' : formatMoney(row.amount, row.currency),
      description: row.description,
      status: expired ? 'expired' : row.status,
      return_url: row.returnUrl,
      company: company.name,
    };
  });

  /** The card page's bodies: raw bytes in this plugin; bad JSON is the caller's mistake (400), never a 500. */
  /** The raw body parsed here (these routes take raw bodies), with the input guard's rule applied. */
  function jsonBody(request: { body: unknown }): unknown {
    const raw = (request.body as Buffer | undefined)?.toString('utf8') || '{}';
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new BadRequestError('The request body is not valid JSON.');
    }
    if (hasControlCharacter(parsed)) throw new BadRequestError(CONTROL_CHARACTER_MESSAGE);
    return parsed;
  }

  app.post('/integrations/test/pay', { config: { access: 'public' } }, async (request, reply) => {
    const body = z
      .object({ session: z.string().min(1).max(100), card_number: z.string().max(30) })
      .parse(jsonBody(request));
    const { tenant, row } = await testCheckout(body.session);
    if (row.mode !== 'payment') throw new NotFoundError();
    // Like a provider's test mode: the documented numbers pay or decline, a bad number is invalid.
    const card = testCardOutcome(body.card_number);
    if (card.outcome === 'invalid') return reply.code(400).send({ message: card.message });
    if (card.outcome === 'declined') {
      // Reported like a provider's failed payment; the page stays open for another card.
      if (await payTestCheckout(app.deps.database.db, tenant, row.id, 'failed'))
        await settleCheckout(app.deps, 'test', row.id);
      return reply.code(402).send({ message: card.message });
    }
    if (!(await payTestCheckout(app.deps.database.db, tenant, row.id))) {
      return reply.code(409).send({ message: 'This payment has expired. Please start your booking again.' });
    }
    await settleCheckout(app.deps, 'test', row.id);
    return { redirect: row.returnUrl };
  });

  app.post('/integrations/test/save-card', { config: { access: 'public' } }, async (request, reply) => {
    const body = z
      .object({ session: z.string().min(1).max(100), card_number: z.string().max(30) })
      .parse(jsonBody(request));
    const { tenant, row } = await testCheckout(body.session);
    if (row.mode !== 'setup') throw new NotFoundError();
    const saved = await saveTestCard(app.deps.database.db, tenant, row.id, body.card_number);
    if (saved.outcome === 'invalid') return reply.code(400).send({ message: saved.message });
    if (saved.outcome === 'declined') return reply.code(402).send({ message: saved.message });
    if (saved.outcome === 'closed') {
      return reply.code(409).send({ message: 'This page has expired. Please start again.' });
    }
    // The provider's "setup finished" webhook: billing re-reads the setup and keeps the card.
    await cardSetupNoticed(app.deps, 'test', row.id);
    return { redirect: row.returnUrl };
  });

  /** A Square card setup (our /payments/square-card page), found from its session alone. */
  async function squareSetup(session: string) {
    const [found] = await app.deps.database.db
      .select({ companyId: squareCardSetups.companyId })
      .from(squareCardSetups)
      // cross-tenant: the public card page names only the session.
      .where(eq(squareCardSetups.id, session));
    if (!found) throw new NotFoundError();
    const tenant = new Tenant(found.companyId);
    const [row] = await app.deps.database.db
      .select()
      .from(squareCardSetups)
      .where(tenant.where(squareCardSetups, eq(squareCardSetups.id, session)));
    return { tenant, row: row! };
  }

  app.get('/integrations/square/card-setup', { config: { access: 'public' } }, async (request) => {
    const { session } = sessionQuery.parse(request.query);
    const { tenant, row } = await squareSetup(session);
    const company = await companyOf(app.deps.database.db, tenant);
    const { config } = app.deps;
    return {
      session: row.id,
      status: row.status === 'open' && row.expiresAt.getTime() <= Date.now() ? 'expired' : row.status,
      return_url: row.returnUrl,
      company: company.name,
      // What Square's Web Payments SDK needs in the browser (public values).
      application_id: config.SQUARE_APPLICATION_ID ?? null,
      location_id: (await squareLocationOf(app.deps, tenant)) ?? config.SQUARE_LOCATION_ID ?? null,
      environment: config.SQUARE_ENVIRONMENT,
    };
  });

  app.post('/integrations/square/card-setup', { config: { access: 'public' } }, async (request, reply) => {
    const body = z
      .object({
        session: z.string().min(1).max(100),
        source_id: z.string().min(1).max(500),
        verification_token: z.string().min(1).max(2000).optional(),
      })
      .parse(jsonBody(request));
    const { tenant, row } = await squareSetup(body.session);
    const saved = await squareProviderFor(app.deps, tenant).saveCard(
      row.id,
      body.source_id,
      body.verification_token,
    );
    if (saved.outcome === 'declined') return reply.code(402).send({ message: saved.message });
    if (saved.outcome === 'closed') {
      return reply.code(409).send({ message: 'This page has expired. Please start again.' });
    }
    await cardSetupNoticed(app.deps, 'square', row.id);
    return { redirect: row.returnUrl };
  });

  app.post('/integrations/test/cancel', { config: { access: 'public' } }, async (request) => {
    const body = sessionQuery.parse(jsonBody(request));
    const { tenant, row } = await testCheckout(body.session);
    await providerFor(app.deps, tenant, 'test').expireCheckout(row.id);
    // Nothing was saved: the page that asked for the card re-reads the setup and says so.
    if (row.mode === 'setup') return { redirect: row.returnUrl };
    await cancelCheckout(app.deps, 'test', row.id);
    // Back to the booking page, which says the payment was cancelled and nothing was charged.
    return { redirect: row.returnUrl.replace('&status=true', '&status=cancelled') };
  });
};
