import { NO_CARD_FOR_AUTOPAY, SAVED_CARD_PATH, type SavedCardResponse } from '@tumble/contracts/autopay';
import type { CheckoutResponse } from '@tumble/contracts/booking';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { AppError, BadRequestError } from '../../platform/errors.ts';
import type { ProviderName } from '../../platform/payments/provider.ts';
import { providerFor } from '../../platform/payments/registry.ts';
import { randomToken } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { cardSetups } from './autopay.tables.ts';
import { lockFamilyAccount } from './ledger.service.ts';
import { familyAccounts, invoiceInstalments, invoices } from './ledger.tables.ts';

/**
 * A family's saved card for autopay (issue 15): the parent saves one on the provider's page
 * (a Stripe SetupIntent, a Square card on file, the test card page), replaces or removes it, and
 * turns autopay on or off. The card lives on the family's account row, changed under its lock.
 */

/** Where a failure mail sends the parent: sign in, then the saved-card page. */
export function updateCardLink(config: Config, company: { authhash: string }): string {
  const query = new URLSearchParams({ authhash: company.authhash, redirect: SAVED_CARD_PATH });
  return `${config.publicUrl}/admin/students/login?${query}`;
}

/** The saved card and the autopay switch, as the parent's page shows them. */
export async function savedCardOf(db: Db, tenant: Tenant, parentId: number): Promise<SavedCardResponse> {
  const [account] = await db
    .select()
    .from(familyAccounts)
    .where(tenant.where(familyAccounts, eq(familyAccounts.parentId, parentId)));
  if (!account?.cardRef) return { card: null, autopay: false };
  return {
    card: {
      brand: account.cardBrand ?? '',
      last4: account.cardLast4 ?? '',
      exp_month: account.cardExpMonth ?? 0,
      exp_year: account.cardExpYear ?? 0,
    },
    autopay: account.autopay,
  };
}

/**
 * Opens the company's provider page where the parent saves a card, answered like a checkout's
 * start (embedded Stripe form, or a page to go to). The session is kept with the family so the
 * provider's notice, which names only the session, saves the card on the right account.
 */
export async function startSavingCard(
  deps: AppDeps,
  auth: Pick<AuthContext, 'tenant' | 'userId' | 'fullName' | 'email'>,
  origin: string,
): Promise<CheckoutResponse> {
  const { db } = deps.database;
  const { tenant } = auth;
  const company = await companyOf(db, tenant);
  const name: ProviderName = company.paymentMethod;
  const [account] = await db
    .select()
    .from(familyAccounts)
    .where(tenant.where(familyAccounts, eq(familyAccounts.parentId, auth.userId)));
  // The provider's customer is reused when the card being replaced was saved with the same provider.
  const customerRef = account?.cardProvider === name ? account.cardCustomerRef : null;
  const provider = providerFor(deps, tenant, name, origin);
  let start: Awaited<ReturnType<typeof provider.startCardSetup>>;
  try {
    start = await provider.startCardSetup({
      reference: `CARD-${auth.userId}-${randomToken(6)}`,
      customerEmail: auth.email,
      customerName: auth.fullName,
      customerRef,
      returnUrl: `${origin}${SAVED_CARD_PATH}?setup=done`,
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(502, 'We could not open the card form. Please try again.');
  }
  await db
    .insert(cardSetups)
    .values(tenant.values({ parentId: auth.userId, provider: name, sessionId: start.sessionId }));
  return start.kind === 'embedded'
    ? {
        valid: true,
        method: 'stripe',
        sessionId: start.sessionId,
        public_key: start.publicKey,
        client_secret: start.clientSecret,
        ...(start.stripeAccount ? { stripe_account: start.stripeAccount } : {}),
      }
    : { valid: true, method: name, sessionId: start.sessionId, payment_link: start.url };
}

/**
 * A card setup finished (the provider's notice, or the parent back on the page): re-reads it from
 * the provider and stores the card on the family's account once. A notice for a setup older than
 * the card saved since changes nothing, so notices out of order keep the newest card. Failed
 * instalments and invoices of the family are tried again on the job's next run.
 */
export async function saveCardFromSetup(
  deps: AppDeps,
  provider: ProviderName,
  sessionId: string,
  now: Date = new Date(),
): Promise<void> {
  const { db } = deps.database;
  const [setup] = await db
    .select()
    .from(cardSetups)
    // cross-tenant: a provider's notice names only its session; the setup row names the company.
    .where(and(eq(cardSetups.provider, provider), eq(cardSetups.sessionId, sessionId)));
  if (!setup || setup.savedAt) return;
  const tenant = new Tenant(setup.companyId);
  const card = await providerFor(deps, tenant, provider).getCardSetup(sessionId);
  if (!card) return;
  const company = await companyOf(db, tenant);
  const today = todayIn(company.timeZone, now);
  await db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(cardSetups)
      .where(tenant.byId(cardSetups, setup.id))
      .for('update');
    if (!locked || locked.savedAt) return;
    await tx.update(cardSetups).set({ savedAt: now }).where(tenant.byId(cardSetups, setup.id));
    const account = await lockFamilyAccount(tx, tenant, setup.parentId);
    if (account.cardSavedAt && account.cardSavedAt > setup.createdAt) return;
    await tx
      .update(familyAccounts)
      .set({
        cardProvider: provider,
        cardCustomerRef: card.customerRef,
        cardRef: card.cardRef,
        cardBrand: card.brand,
        cardLast4: card.last4,
        cardExpMonth: card.expMonth,
        cardExpYear: card.expYear,
        cardSavedAt: now,
      })
      .where(tenant.byId(familyAccounts, account.id));
    await retryWithNewCard(tx, tenant, setup.parentId, today);
  });
}

/** A new card: the family's failed instalments and invoices are due again today. */
async function retryWithNewCard(tx: Db, tenant: Tenant, parentId: number, today: string) {
  const owing = tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      tenant.where(
        invoices,
        eq(invoices.parentId, parentId),
        inArray(invoices.status, ['issued', 'part_paid', 'overdue']),
      ),
    );
  await tx
    .update(invoiceInstalments)
    .set({ nextAttemptOn: today })
    .where(
      tenant.where(
        invoiceInstalments,
        eq(invoiceInstalments.status, 'failed'),
        inArray(invoiceInstalments.invoiceId, owing),
      ),
    );
  // Invoices without instalments keep their retry date on their last failed attempt.
  await tx.execute(sql`
    update autopay_attempts a set next_attempt_on = ${today}
    where a.company_id = ${tenant.companyId} and a.parent_id = ${parentId} and a.status = 'failed'
      and a.instalment_id is null
      and a.attempt = (select max(b.attempt) from autopay_attempts b
                       where b.company_id = a.company_id and b.invoice_id = a.invoice_id)`);
}

/**
 * The parent is back from the provider's page: their newest setup is saved if the provider says it
 * finished (the webhook may not have arrived yet). `saved`: that setup's card is on the account.
 */
export async function cardSetupReturned(deps: AppDeps, tenant: Tenant, parentId: number) {
  const { db } = deps.database;
  const newest = () =>
    db
      .select()
      .from(cardSetups)
      .where(tenant.where(cardSetups, eq(cardSetups.parentId, parentId)))
      .orderBy(desc(cardSetups.createdAt), desc(cardSetups.id))
      .limit(1);
  const [setup] = await newest();
  if (setup && !setup.savedAt) await saveCardFromSetup(deps, setup.provider, setup.sessionId);
  const [after] = await newest();
  return { ...(await savedCardOf(db, tenant, parentId)), saved: Boolean(after?.savedAt) };
}

/** Turns autopay on (only with a saved card) or off. */
export async function setAutopay(db: Db, tenant: Tenant, parentId: number, autopay: boolean) {
  await db.transaction(async (tx) => {
    const account = await lockFamilyAccount(tx, tenant, parentId);
    if (autopay && !account.cardRef) throw new BadRequestError(NO_CARD_FOR_AUTOPAY);
    await tx.update(familyAccounts).set({ autopay }).where(tenant.byId(familyAccounts, account.id));
  });
  return savedCardOf(db, tenant, parentId);
}

/** Forgets the saved card; autopay goes off with it. */
export async function removeCard(db: Db, tenant: Tenant, parentId: number) {
  // No card saved: nothing to forget (and no account row made for it).
  const current = await savedCardOf(db, tenant, parentId);
  if (current.card === null) return current;
  await db.transaction(async (tx) => {
    const account = await lockFamilyAccount(tx, tenant, parentId);
    await tx
      .update(familyAccounts)
      .set({
        autopay: false,
        cardProvider: null,
        cardCustomerRef: null,
        cardRef: null,
        cardBrand: null,
        cardLast4: null,
        cardExpMonth: null,
        cardExpYear: null,
        cardSavedAt: null,
      })
      .where(tenant.byId(familyAccounts, account.id));
  });
  return savedCardOf(db, tenant, parentId);
}
