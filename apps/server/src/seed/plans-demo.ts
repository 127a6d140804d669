import type { Db } from '../db/client.ts';
import { plans } from '../platform/installation/installation.tables.ts';
import { moduleKeys } from '../platform/modules.ts';

/**
 * The installation's demo plans (SPEC plans): three sizes a gym would choose between. The demo
 * company has no plan, so it keeps every module; its admin picks one on /admin/subscription.
 * Once: a plan of the same name is left as it is.
 */
export async function seedPlansDemo(db: Db): Promise<void> {
  await db
    .insert(plans)
    .values([
      {
        name: 'Starter',
        monthlyPrice: 4900,
        modules: ['events', 'parties', 'waivers', 'communications', 'reports'],
        maxChildren: 100,
        maxStaff: 3,
        trialDays: 14,
      },
      {
        name: 'Growth',
        monthlyPrice: 9900,
        modules: moduleKeys.filter((k) => k !== 'integrations'),
        maxChildren: 500,
        maxStaff: 10,
        trialDays: 14,
      },
      { name: 'Studio', monthlyPrice: 19900, modules: [...moduleKeys], trialDays: 30 },
    ])
    .onConflictDoNothing({ target: plans.name });
}
