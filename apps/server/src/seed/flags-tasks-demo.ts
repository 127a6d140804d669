import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../features/accounts/accounts.tables.ts';
import { flagAssignments, flags } from '../features/students/flags.tables.ts';
import { children } from '../features/students/students.tables.ts';
import { taskListItems, taskLists, tasks } from '../features/tasks/tasks.tables.ts';
import { addDays, todayIn } from '../platform/time.ts';
import type { DemoScope } from './demo-scope.ts';

/**
 * Flags and tasks to look at: four company flags; Ruby Walker flagged Anaphylaxis (on the
 * roll, with a note) and the Walker family Late pick-up (on Ruby's and Jack's roll entries); the
 * "New family" task list; one family task for the demo parent and one staff task. Made once (the
 * flags are the marker).
 */
export async function seedFlagsTasksDemo(db: Db, scope: DemoScope): Promise<void> {
  const { tenant } = scope;
  const emails = {
    walker: scope.email('walker'),
    parent: scope.email('parent'),
    admin: scope.email('admin'),
  };
  await db.transaction(async (tx) => {
    const existing = await tx.select({ id: flags.id }).from(flags).where(tenant.where(flags)).limit(1);
    if (existing.length > 0) return;
    const people = await tx
      .select({ id: users.id, email: users.email, role: users.role })
      .from(users)
      .where(tenant.where(users, inArray(users.email, Object.values(emails))));
    const walker = people.find((p) => p.email === emails.walker);
    const parent = people.find((p) => p.email === emails.parent);
    const admin = people.find((p) => p.email === emails.admin);
    if (!walker || !parent || !admin) return;
    const made = await tx
      .insert(flags)
      .values([
        tenant.values({ name: 'Anaphylaxis', kind: 'allergy' as const, colour: '#e03131', showOnRoll: true }),
        tenant.values({ name: 'Asthma', kind: 'medical' as const, colour: '#f08c00', showOnRoll: true }),
        tenant.values({
          name: 'Needs a buddy',
          kind: 'behaviour' as const,
          colour: '#7048e8',
          showOnRoll: false,
        }),
        tenant.values({ name: 'Late pick-up', kind: 'custom' as const, colour: '#1971c2', showOnRoll: true }),
      ])
      .returning();
    const flag = (name: string) => made.find((f) => f.name === name)!.id;
    const [ruby] = await tx
      .select({ id: children.id })
      .from(children)
      .where(tenant.where(children, and(eq(children.parentId, walker.id), eq(children.firstName, 'Ruby'))));
    if (ruby) {
      await tx.insert(flagAssignments).values(
        tenant.values({
          flagId: flag('Anaphylaxis'),
          childId: ruby.id,
          note: 'Peanuts. EpiPen with the front desk.',
          appliedById: admin.id,
        }),
      );
    }
    await tx.insert(flagAssignments).values(
      tenant.values({
        flagId: flag('Late pick-up'),
        parentId: walker.id,
        note: 'Grandma collects on Thursdays, usually 10 minutes late.',
        appliedById: admin.id,
      }),
    );

    const [list] = await tx
      .insert(taskLists)
      .values(tenant.values({ name: 'New family' }))
      .returning();
    await tx.insert(taskListItems).values(
      [
        { title: 'Call the family to welcome them', dueDays: 0, assigneeRole: 'companystaff' as const },
        { title: 'Send the welcome pack', dueDays: 2, assigneeRole: 'companystaff' as const },
        { title: 'Check the medical plan', dueDays: 7, assigneeRole: 'companyadmin' as const },
        { title: 'Upload your child’s medical plan', dueDays: 7, assigneeRole: 'family' as const },
      ].map((item, position) => tenant.values({ ...item, taskListId: list!.id, position })),
    );

    const today = todayIn(scope.timeZone);
    await tx.insert(tasks).values([
      tenant.values({
        title: 'Upload the anaphylaxis plan',
        notes: 'A signed ASCIA action plan, as a photo or PDF, emailed to the front desk.',
        assigneeRole: 'family' as const,
        parentId: parent.id,
        dueDate: addDays(today, 5),
        createdById: admin.id,
      }),
      tenant.values({
        title: 'Call the Walkers about the overdue invoice',
        assigneeId: admin.id,
        parentId: walker.id,
        dueDate: addDays(today, -1),
        createdById: admin.id,
      }),
    ]);
  });
}
