import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../features/accounts/accounts.tables.ts';
import { contactNotes, contacts } from '../features/crm/crm.tables.ts';
import { addDays, todayIn } from '../platform/time.ts';
import type { DemoScope } from './demo-scope.ts';

const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);

/**
 * Leads to look at in Contacts: an enquiry from the registration form due today, a
 * walk-in due yesterday, a Facebook lead with a trial booked, a lost one, and a referral that became
 * the Walker family. Settings stay the defaults (nothing stored until the company saves). Made once
 * (any contact is the marker).
 */
export async function seedCrmDemo(db: Db, scope: DemoScope): Promise<void> {
  const { tenant } = scope;
  const walkerEmail = scope.email('walker');
  const adminEmail = scope.email('admin');
  await db.transaction(async (tx) => {
    const existing = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(tenant.where(contacts))
      .limit(1);
    if (existing.length > 0) return;
    const people = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(tenant.where(users, inArray(users.email, [walkerEmail, adminEmail])));
    const walker = people.find((p) => p.email === walkerEmail);
    const admin = people.find((p) => p.email === adminEmail);
    const today = todayIn(scope.timeZone);
    const rows = await tx
      .insert(contacts)
      .values([
        tenant.values({
          fullName: 'Olivia Chen',
          email: 'olivia.chen@example.test',
          phone: '0412 345 678',
          children: [{ name: 'Mei', age: 4, dob: null }],
          interest: 'Term classes',
          source: 'Enquiry form',
          stage: 'New',
          followUpOn: today,
          createdAt: daysAgo(1),
        }),
        tenant.values({
          fullName: 'Daniel Murphy',
          email: 'dan.murphy@example.test',
          phone: '0423 456 789',
          children: [
            { name: 'Liam', age: 7, dob: null },
            { name: 'Ava', age: 5, dob: null },
          ],
          interest: 'Ninja classes',
          source: 'Walk-in',
          stage: 'Contacted',
          followUpOn: addDays(today, -1),
          createdAt: daysAgo(6),
        }),
        tenant.values({
          fullName: 'Priya Sharma',
          email: 'priya.sharma@example.test',
          phone: null,
          children: [{ name: 'Anika', age: null, dob: '2019-05-14' }],
          interest: 'Kinder gym',
          source: 'Facebook',
          stage: 'Trial booked',
          followUpOn: addDays(today, 5),
          createdAt: daysAgo(12),
        }),
        tenant.values({
          fullName: 'Tom Nguyen',
          email: null,
          phone: '0434 567 890',
          children: [{ name: 'Kai', age: 9, dob: null }],
          interest: 'Holiday camp',
          source: 'Website',
          stage: 'Lost',
          followUpOn: null,
          createdAt: daysAgo(30),
        }),
        ...(walker
          ? [
              tenant.values({
                fullName: 'Jess Walker',
                email: walkerEmail,
                phone: null,
                children: [
                  { name: 'Ruby', age: 6, dob: null },
                  { name: 'Jack', age: 4, dob: null },
                ],
                interest: 'Term classes',
                source: 'Referral',
                stage: 'Won',
                followUpOn: null,
                parentId: walker.id,
                convertedAt: daysAgo(20),
                createdAt: daysAgo(40),
              }),
            ]
          : []),
      ])
      .returning({ id: contacts.id, fullName: contacts.fullName });
    const id = (name: string) => rows.find((r) => r.fullName === name)?.id;
    // The enquiry's own message has no author (the form); the rest are the admin's notes.
    const notes = [
      [id('Olivia Chen'), 'Is there a class on Saturday mornings for a 4 year old?', 1],
      [id('Daniel Murphy'), 'Came in during the open day; both kids loved the ninja course.', 6],
      [id('Daniel Murphy'), 'Called, left a message.', 2],
      [id('Priya Sharma'), 'Trial booked for Saturday Kinder gym.', 10],
      [id('Tom Nguyen'), 'Went with a gym closer to home.', 25],
    ] as const;
    await tx.insert(contactNotes).values(
      notes.flatMap(([contactId, body, days]) =>
        contactId
          ? [
              tenant.values({
                contactId,
                body,
                createdAt: daysAgo(days),
                authorId: contactId === id('Olivia Chen') ? null : (admin?.id ?? null),
              }),
            ]
          : [],
      ),
    );
  });
}
