import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { mailKindOf } from '../features/communications/reminders/reminders.service.ts';
import { reminderRules, reminderSends } from '../features/communications/reminders/reminders.tables.ts';
import { queueMail } from '../platform/mail/mail.service.ts';
import { addDays, displayDate, todayIn } from '../platform/time.ts';
import type { DemoScope } from './demo-scope.ts';

/**
 * Reminder emails to look at: invoice due (3 days), missing waiver (2 days) and the
 * coaches' Working With Children Check (30 days) switched on; the class reminder left off for the
 * demo to switch on; two reminders sent last week with their mails in the Outbox. Made once (the
 * rules are the marker).
 */
export async function seedRemindersDemo(db: Db, scope: DemoScope, config: Config): Promise<void> {
  const { tenant } = scope;
  await db.transaction(async (tx) => {
    const existing = await tx
      .select({ id: reminderRules.id })
      .from(reminderRules)
      .where(tenant.where(reminderRules));
    if (existing.length > 0) return;
    const now = new Date();
    await tx.insert(reminderRules).values(
      (
        [
          ['invoice-due', 3],
          ['waiver', 2],
          ['wwcc', 30],
        ] as const
      ).map(([kind, amount]) => tenant.values({ kind, enabled: true, amount, activeFrom: now })),
    );
    const lastWeek = addDays(todayIn(scope.timeZone, now), -6);
    const sends: { kind: 'class' | 'wwcc'; to: string; occasion: string; data: Record<string, string> }[] = [
      {
        kind: 'class',
        to: scope.email('walker'),
        occasion: `Kinder Gym on ${displayDate(lastWeek)} at 16:00`,
        data: {
          name: 'Tom Walker',
          company: 'Bounce Gymnastics Parramatta',
          children: 'Ruby and Jack',
          class: 'Kinder Gym',
          date: displayDate(lastWeek),
          time: '16:00',
        },
      },
      {
        kind: 'wwcc',
        to: `hello@bounce.${scope.emailDomain}`,
        occasion: `Check of Casey Coach expires ${displayDate(addDays(lastWeek, 30))}`,
        data: {
          name: 'Bounce Gymnastics Parramatta',
          company: 'Bounce Gymnastics Parramatta',
          coach: 'Casey Coach',
          number: 'WWC0123456E',
          expires: displayDate(addDays(lastWeek, 30)),
        },
      },
    ];
    for (const send of sends) {
      const mailId = await queueMail(tx, tenant, config, mailKindOf(send.kind), send.to, send.data);
      await tx.insert(reminderSends).values(
        tenant.values({
          kind: send.kind,
          occasionKey: `demo:${send.kind}`,
          recipient: send.to,
          summary: send.occasion,
          mailId,
          sentAt: new Date(now.getTime() - 6 * 86_400_000),
        }),
      );
    }
  });
}
