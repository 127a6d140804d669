import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import { testCheckouts } from '../../platform/payments/payments.tables.ts';
import { WebhookSignatureError } from '../../platform/payments/provider.ts';
import { providerFor } from '../../platform/payments/registry.ts';
import { cancelCheckout, settleCheckout } from '../../platform/payments/settlement.ts';
import { payTestCheckout, TEST_DECLINED_CARD, testCheckoutCompany } from '../../platform/payments/test.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { companyOf } from './booking.service.ts';

/**
 * /integrations: payment provider webhooks (raw body, signature checked, idempotent), the card
 * form's cancel call, and the test provider's card page API.
 */
export const integrationRoutes: FastifyPluginAsync = async (app) => {
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
        let notice: Awaited<ReturnType<ReturnType<typeof providerFor>['parseWebhook']>>;
        try {
          notice = await providerFor(app.deps, new Tenant(1), provider).parseWebhook(
            request.body,
            request.headers,
          );
        } catch (error) {
          if (error instanceof WebhookSignatureError) return reply.code(400).send({ message: error.message });
          throw error;
        }
        if (notice) await settleCheckout(app.deps, provider, notice.sessionId);
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
    const expired = row.status === 'open' && row.expiresAt.getTime() <= Date.now();
    return {
      session: row.id,
      amount: row.amount,
      formatted: formatMoney(row.amount),
      description: row.description,
      status: expired ? 'expired' : row.status,
      return_url: row.returnUrl,
      company: company.name,
    };
  });

  app.post('/integrations/test/pay', { config: { access: 'public' } }, async (request, reply) => {
    const body = z
      .object({ session: z.string().min(1).max(100), card_number: z.string().max(30) })
      .parse(JSON.parse((request.body as Buffer | undefined)?.toString('utf8') || '{}'));
    const { tenant, row } = await testCheckout(body.session);
    const card = body.card_number.replace(/\D/g, '');
    if (card.length !== 16) return reply.code(400).send({ message: 'Please enter a 16-digit card number.' });
    if (card === TEST_DECLINED_CARD) return reply.code(402).send({ message: 'Your card was declined.' });
    if (!(await payTestCheckout(app.deps.database.db, tenant, row.id))) {
      return reply.code(409).send({ message: 'This payment has expired. Please start your booking again.' });
    }
    await settleCheckout(app.deps, 'test', row.id);
    return { redirect: row.returnUrl };
  });

  app.post('/integrations/test/cancel', { config: { access: 'public' } }, async (request) => {
    const body = sessionQuery.parse(
      JSON.parse((request.body as Buffer | undefined)?.toString('utf8') || '{}'),
    );
    const { tenant, row } = await testCheckout(body.session);
    await providerFor(app.deps, tenant, 'test').expireCheckout(row.id);
    await cancelCheckout(app.deps, 'test', row.id);
    // Back to the booking page, which says the payment was cancelled and nothing was charged.
    return { redirect: row.returnUrl.replace('&status=true', '&status=cancelled') };
  });
};
