import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../features/accounts/accounts.tables.ts';
import { LAST_ATTEMPT, RETRY_DAYS } from '../features/billing/autopay.service.ts';
import { autopayAttempts } from '../features/billing/autopay.tables.ts';
import { createInvoice, lockFamilyAccount, refreshInvoice } from '../features/billing/ledger.service.ts';
import { familyAccounts } from '../features/billing/ledger.tables.ts';
import { testCards } from '../platform/payments/payments.tables.ts';
import { addDays, todayIn } from '../platform/time.ts';
import type { DemoScope } from './demo-scope.ts';

/**
 * Autopay to look at: the Walker family (seed/classes-demo.ts: Ruby and Jack) saved the test card
 * that declines charges, and autopay tried their term invoice on its due date and 3, 5 and 8 days
 * later, declined each time. The invoice is overdue and Ruby's and Jack's roll entries show the
 * "Payment overdue" dot. Made once (the invoice's source key); no retry is left for the job.
 */
export async function seedAutopayDemo(db: Db, scope: DemoScope): Promise<void> {
  const { tenant } = scope;
  const today = todayIn(scope.timeZone);
  await db.transaction(async (tx) => {
    const [walker] = await tx
      .select({ id: users.id })
      .from(users)
      .where(tenant.where(users, and(eq(users.role, 'student'), eq(users.email, scope.email('walker')))));
    if (!walker) return;
    const dueOn = addDays(today, -12);
    const { invoice, created } = await createInvoice(tx, tenant, {
      parentId: walker.id,
      kind: 'one_off',
      sourceKey: 'demo:invoice:autopay-walker',
      lines: [
        { description: 'Gymnastics term fees', detail: 'Ruby and Jack, weekly classes', unitAmount: 36_000 },
      ],
      issueOn: addDays(dueOn, -14),
      dueOn,
    });
    if (!created) return;
    const cardRef = `test_card_demo_walker_${tenant.companyId}`;
    const customerRef = `test_cus_demo_walker_${tenant.companyId}`;
    const expYear = Number(today.slice(0, 4)) + 2;
    await tx
      .insert(testCards)
      .values(
        tenant.values({
          id: cardRef,
          customerRef,
          last4: '0341',
          declinesCharges: true,
          expMonth: 6,
          expYear,
        }),
      )
      .onConflictDoNothing();
    const account = await lockFamilyAccount(tx, tenant, walker.id);
    await tx
      .update(familyAccounts)
      .set({
        autopay: true,
        cardProvider: 'test',
        cardCustomerRef: customerRef,
        cardRef,
        cardBrand: 'visa',
        cardLast4: '0341',
        cardExpMonth: 6,
        cardExpYear: expYear,
        cardSavedAt: new Date(),
      })
      .where(tenant.byId(familyAccounts, account.id));
    // Tried on the due date and 3, 5 and 8 days after it; declined each time.
    await tx.insert(autopayAttempts).values(
      [0, ...RETRY_DAYS].map((days, i) =>
        tenant.values({
          parentId: walker.id,
          invoiceId: invoice.id,
          attempt: i + 1,
          idempotencyKey: `autopay:${tenant.companyId}:invoice:${invoice.id}:${i + 1}`,
          amount: invoice.total,
          provider: 'test' as const,
          customerRef,
          cardRef,
          status: 'failed' as const,
          claimedAt: new Date(),
          attemptedOn: addDays(dueOn, days),
          failureReason: 'Your card was declined.',
          nextAttemptOn: i + 1 < LAST_ATTEMPT ? addDays(dueOn, RETRY_DAYS[i]!) : null,
          finishedAt: new Date(),
        }),
      ),
    );
    await refreshInvoice(tx, tenant, invoice.id, today);
  });
}
