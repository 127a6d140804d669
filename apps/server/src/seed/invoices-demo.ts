import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../features/accounts/accounts.tables.ts';
import { createInvoice, issueCreditNote } from '../features/billing/ledger.service.ts';
import { billingProfiles } from '../features/billing/ledger.tables.ts';
import { addDays, todayIn } from '../platform/time.ts';
import type { DemoScope } from './demo-scope.ts';

/**
 * A demo company's billing profile (GST-registered, a valid ABN, bank details) and three
 * invoices to look at: an issued one-off to the demo parent, one to another family with a credit
 * note against it, and a draft. Made once (source keys); a profile someone already filled is kept.
 */
export async function seedInvoicesDemo(db: Db, scope: DemoScope): Promise<void> {
  const { tenant } = scope;
  const today = todayIn(scope.timeZone);
  const patEmail = scope.email('parent');
  const joEmail = scope.email('family');
  await db.transaction(async (tx) => {
    const demoProfile = {
      legalName: 'Bounce Gymnastics Parramatta Pty Ltd',
      abn: '51824753556',
      gstRegistered: true,
      address: '12 Church St, Parramatta NSW 2150',
      invoicePrefix: 'INV-',
      daysUntilDue: 14,
      bankAccountName: 'Bounce Gymnastics Parramatta Pty Ltd',
      bsb: '062000',
      bankAccountNumber: '12345678',
      lateFeePolicy: 'A $10 late fee applies to invoices unpaid 7 days after the due date.',
    };
    await tx.insert(billingProfiles).values(tenant.values(demoProfile)).onConflictDoNothing();
    await tx
      .update(billingProfiles)
      .set(demoProfile)
      .where(tenant.where(billingProfiles, isNull(billingProfiles.abn)));
    const families = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(tenant.where(users, and(eq(users.role, 'student'), inArray(users.email, [patEmail, joEmail]))));
    const pat = families.find((f) => f.email === patEmail);
    const jo = families.find((f) => f.email === joEmail);
    if (!pat || !jo) return;
    await createInvoice(tx, tenant, {
      parentId: pat.id,
      kind: 'one_off',
      sourceKey: 'demo:invoice:uniform',
      lines: [
        { description: 'Club leotard (size 8)', detail: 'Bounce squad leotard, navy', unitAmount: 6500 },
        { description: 'Squad tracksuit', quantity: 1, unitAmount: 8900 },
        {
          description: 'First-aid for kids workshop',
          detail: 'Accredited course: GST-free education',
          quantity: 2,
          unitAmount: 2500,
          gstFree: true,
        },
      ],
      notes: 'Thank you for joining the squad this term.',
      issueOn: today,
      dueOn: addDays(today, 14),
    });
    const camp = await createInvoice(tx, tenant, {
      parentId: jo.id,
      kind: 'one_off',
      sourceKey: 'demo:invoice:camp',
      lines: [
        {
          description: 'Holiday camp: 3 extra days',
          detail: '3 days × $75.00 · Noah Family',
          quantity: 3,
          unitAmount: 7500,
        },
      ],
      issueOn: today,
      dueOn: addDays(today, 7),
    });
    if (camp.created)
      await issueCreditNote(
        tx,
        tenant,
        { invoiceId: camp.invoice.id, amount: 7500, reason: 'One day missed (sick), credited' },
        today,
      );
    await createInvoice(tx, tenant, {
      parentId: pat.id,
      kind: 'one_off',
      sourceKey: 'demo:invoice:private-coaching',
      lines: [
        {
          description: 'Private coaching',
          detail: '5 lessons × 30 minutes with Casey',
          quantity: 5,
          unitAmount: 4000,
        },
      ],
      dueOn: addDays(today, 21),
    });
  });
}
