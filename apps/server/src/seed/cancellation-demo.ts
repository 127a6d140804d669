import type { Db } from '../db/client.ts';
import { cancellationPolicies } from '../features/billing/cancellation.tables.ts';
import type { DemoScope } from './demo-scope.ts';

/**
 * A demo company's self-service cancellation policies, as a gym often writes them: event days
 * and classes 48 hours ahead for credit, parties a week ahead for half the deposit back. Once.
 */
export async function seedCancellationDemo(db: Db, { tenant }: DemoScope): Promise<void> {
  await db
    .insert(cancellationPolicies)
    .values([
      tenant.values({
        appliesTo: 'events' as const,
        noticeHours: 48,
        percentBack: 100,
        destination: 'credit' as const,
        summary: 'Cancel a day at least 48 hours ahead for a full credit.',
      }),
      tenant.values({
        appliesTo: 'parties' as const,
        noticeHours: 168,
        percentBack: 50,
        destination: 'refund' as const,
        summary: 'Cancel at least a week ahead for half the deposit back.',
      }),
      tenant.values({
        appliesTo: 'classes' as const,
        noticeHours: 48,
        percentBack: 100,
        destination: 'credit' as const,
        summary: 'Withdraw at least 48 hours before a session for a credit of the sessions left.',
      }),
    ])
    .onConflictDoNothing();
}
