import { audienceFilter } from '@tumble/contracts/communications';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { marketingConsents } from './consent.tables.ts';
import { massMailRecipients, massMails } from './mass-mail.tables.ts';

describe('merging families: marketing consent and mass mail recipients', () => {
  let t: TestContext;
  let companyId: number;
  let staff: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    companyId = (await createCompany(t.database.db)).id;
    staff = (
      await sessionFor(t.database.db, await createUser(t.database.db, companyId, { role: 'companystaff' }))
    ).headers;
  });
  afterAll(() => t?.close());

  const merge = (from: number, to: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/merge/families',
      headers: staff,
      payload: { from_parent_id: from, to_parent_id: to },
    });

  it('a withdrawal by the duplicate family holds for the kept one; one answer per family remains', async () => {
    const { db } = t.database;
    const duplicate = await createUser(db, companyId, { role: 'student' });
    const kept = await createUser(db, companyId, { role: 'student' });
    await db.insert(marketingConsents).values([
      {
        companyId,
        parentId: duplicate.id,
        status: 'withdrawn',
        source: 'unsubscribe-link',
        unsubscribeToken: `d${duplicate.id}`,
      },
      { companyId, parentId: kept.id, status: 'inferred', source: 'mail', unsubscribeToken: `k${kept.id}` },
    ]);
    expect((await merge(duplicate.id, kept.id)).statusCode).toBe(200);
    const rows = await db
      .select()
      .from(marketingConsents)
      .where(inArray(marketingConsents.parentId, [duplicate.id, kept.id]));
    expect(rows.map((row) => [row.parentId, row.status])).toEqual([[kept.id, 'withdrawn']]);
  });

  it('moves the duplicate’s consent when the kept family has none, and its mass mails unless both got the same one', async () => {
    const { db } = t.database;
    const duplicate = await createUser(db, companyId, { role: 'student' });
    const kept = await createUser(db, companyId, { role: 'student' });
    await db.insert(marketingConsents).values({
      companyId,
      parentId: duplicate.id,
      status: 'granted',
      source: 'parent',
      unsubscribeToken: `g${duplicate.id}`,
    });
    const mail = (subject: string) => ({
      companyId,
      subject,
      body: '<p>Hi</p>',
      filter: audienceFilter.parse({}),
      status: 'sent' as const,
    });
    const [both, onlyDuplicate] = await db
      .insert(massMails)
      .values([mail('Both'), mail('Only the duplicate')])
      .returning();
    await db.insert(massMailRecipients).values([
      { companyId, massMailId: both!.id, parentId: duplicate.id },
      { companyId, massMailId: both!.id, parentId: kept.id },
      { companyId, massMailId: onlyDuplicate!.id, parentId: duplicate.id },
    ]);
    expect((await merge(duplicate.id, kept.id)).statusCode).toBe(200);

    const [consent] = await db
      .select()
      .from(marketingConsents)
      .where(eq(marketingConsents.parentId, kept.id));
    expect(consent!.status).toBe('granted');
    const recipients = await db
      .select({ massMailId: massMailRecipients.massMailId, parentId: massMailRecipients.parentId })
      .from(massMailRecipients)
      .where(inArray(massMailRecipients.massMailId, [both!.id, onlyDuplicate!.id]));
    expect(recipients.sort((a, b) => a.massMailId - b.massMailId)).toEqual([
      { massMailId: both!.id, parentId: kept.id },
      { massMailId: onlyDuplicate!.id, parentId: kept.id },
    ]);
  });
});
