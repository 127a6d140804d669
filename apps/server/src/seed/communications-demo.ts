import type { AudienceFilter } from '@tumble/contracts/communications';
import type { Db } from '../db/client.ts';
import { massMails } from '../features/communications/mass-mail.tables.ts';
import { addDays, todayIn, zonedInstant } from '../platform/time.ts';
import type { DemoScope } from './demo-scope.ts';

const EVERY_FAMILY: AudienceFilter = {
  term_ids: [],
  class_type_ids: [],
  class_ids: [],
  weekdays: [],
  event_ids: [],
  party_from: null,
  party_to: null,
  enrolment_statuses: [],
  age_min: null,
  age_max: null,
  unpaid_balance: false,
  flag_ids: [],
  consent_granted: false,
};

/**
 * A mass mail to look at: the re-enrolment news, scheduled for 9 am in 60 days, to every
 * family, so the Mass mail list is not empty and shows a scheduled mail with its time. Made once.
 */
export async function seedCommunicationsDemo(db: Db, { tenant, timeZone }: DemoScope): Promise<void> {
  const existing = await db
    .select({ id: massMails.id })
    .from(massMails)
    .where(tenant.where(massMails))
    .limit(1);
  if (existing.length > 0) return;
  await db.insert(massMails).values(
    tenant.values({
      subject: 'Re-enrolment for next term opens soon, {parent_first_name}',
      body: '<p>Hi {parent_first_name},</p><p>Re-enrolment for {child_first_name} opens next week. Current families keep their place until the deadline.</p><p>See you at {company}!</p>',
      marketing: true,
      filter: EVERY_FAMILY,
      status: 'scheduled' as const,
      sendAt: zonedInstant(addDays(todayIn(timeZone), 60), '09:00', timeZone),
    }),
  );
}
