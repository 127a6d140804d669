import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { randomToken } from '../secrets.ts';
import type { Tenant } from '../tenancy.ts';
import { notBuiltYet } from './not-built-yet.ts';
import { testCheckouts } from './payments.tables.ts';
import { type CheckoutState, type PaymentProvider, WebhookSignatureError } from './provider.ts';

/** Cards of the test page, as in a provider's test mode: this one pays… */
export const TEST_SUCCESS_CARD = '4242424242424242';
/** …and this one is declined. */
export const TEST_DECLINED_CARD = '4000000000000002';

/** The Luhn check every real card number passes. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * What the test card page does with a number: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is
 * declined; a number that is not 12–19 digits or fails the Luhn check is invalid; any other
 * valid-looking number is declined, saying which numbers to use.
 */
export function testCardOutcome(
  typed: string,
): { outcome: 'paid' } | { outcome: 'declined' | 'invalid'; message: string } {
  const card = typed.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(card) || !luhnValid(card))
    return { outcome: 'invalid', message: 'Your card number is invalid.' };
  if (card === TEST_SUCCESS_CARD) return { outcome: 'paid' };
  if (card === TEST_DECLINED_CARD) return { outcome: 'declined', message: 'Your card was declined.' };
  return {
    outcome: 'declined',
    message: 'Your card was declined. This is test mode: use 4242 4242 4242 4242 to pay.',
  };
}

/**
 * The `test` provider: checkouts live in our own table and are paid on a local card page
 * (/payments/test) that says it is test mode. It goes through the same confirm path as Stripe
 * and Square, so the demo and the end-to-end tests exercise real holds and confirmations.
 */
export function createTestProvider(
  db: Db,
  tenant: Tenant,
  options: { publicUrl: string; webhookSecret: string },
): PaymentProvider {
  const read = async (sessionId: string): Promise<CheckoutState> => {
    const [row] = await db
      .select()
      .from(testCheckouts)
      .where(tenant.where(testCheckouts, eq(testCheckouts.id, sessionId)));
    if (!row) throw new Error(`unknown test checkout ${sessionId}`);
    const unpaid = row.status === 'open' || row.status === 'failed';
    const status = unpaid && row.expiresAt.getTime() <= Date.now() ? 'expired' : row.status;
    return { sessionId: row.id, reference: row.reference, status, amount: row.amount };
  };
  return {
    name: 'test',
    async createCheckout(request) {
      const id = `test_cs_${randomToken(18)}`;
      await db.insert(testCheckouts).values(
        tenant.values({
          id,
          reference: request.reference,
          amount: request.amount,
          currency: request.currency,
          description: request.description,
          returnUrl: request.returnUrl,
          expiresAt: request.expiresAt,
        }),
      );
      return { kind: 'redirect', sessionId: id, url: `${options.publicUrl}/payments/test?session=${id}` };
    },
    getCheckout: read,
    async expireCheckout(sessionId) {
      await db
        .update(testCheckouts)
        .set({ status: 'expired' })
        .where(
          tenant.where(
            testCheckouts,
            eq(testCheckouts.id, sessionId),
            inArray(testCheckouts.status, ['open', 'failed']),
          ),
        );
    },
    async parseWebhook(rawBody, headers) {
      const expected = createHmac('sha256', options.webhookSecret).update(rawBody).digest('hex');
      const given = String(headers['x-test-signature'] ?? '');
      if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
        throw new WebhookSignatureError();
      }
      const event = JSON.parse(rawBody.toString('utf8')) as { id?: string; session?: string };
      return event.id && event.session ? { eventId: event.id, sessionId: event.session } : null;
    },
    ...notBuiltYet, // TEMPORARY (lead, issue 15): the providers engineer replaces this today.
  };
}

/**
 * The card page's Pay button: a paying card pays an unexpired checkout that is open or whose last
 * card was declined; a declined card marks it failed (settlement then records the failure once).
 * Returns false when it can no longer be paid (expired, paid already).
 */
export async function payTestCheckout(
  db: Db,
  tenant: Tenant,
  sessionId: string,
  outcome: 'paid' | 'failed' = 'paid',
): Promise<boolean> {
  const paid = await db
    .update(testCheckouts)
    .set({ status: outcome })
    .where(
      and(
        tenant.where(
          testCheckouts,
          eq(testCheckouts.id, sessionId),
          inArray(testCheckouts.status, ['open', 'failed']),
        ),
        sql`${testCheckouts.expiresAt} > now()`,
      ),
    )
    .returning({ id: testCheckouts.id });
  return paid.length === 1;
}

/** Which company a test checkout belongs to (the card page is public and names only the session). */
export async function testCheckoutCompany(db: Db, sessionId: string): Promise<number | null> {
  const [row] = await db
    .select({ companyId: testCheckouts.companyId })
    .from(testCheckouts)
    // cross-tenant: the public card page names only the session.
    .where(eq(testCheckouts.id, sessionId));
  return row?.companyId ?? null;
}
