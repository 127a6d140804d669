import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { withdrawnForErasure } from '../../platform/mail/mail.service.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import {
  createChild,
  createConfirmedBooking,
  createConfirmedParty,
  createWaiverTemplate,
  SIGNATURE,
} from '../../testing/waiver-fixtures.ts';
import { authSessions, users } from '../accounts/accounts.tables.ts';
import { invoices } from '../billing/ledger.tables.ts';
import { bookingPlaces, bookings } from '../bookings/bookings.tables.ts';
import { setMarketingConsent } from '../communications/consent.service.ts';
import { marketingConsents } from '../communications/consent.tables.ts';
import { contacts } from '../crm/crm.tables.ts';
import { flagAssignments, flags } from '../students/flags.tables.ts';
import { children } from '../students/students.tables.ts';
import { signedWaivers } from '../waivers/waivers.tables.ts';

describe('erasing a family', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let other: Awaited<ReturnType<typeof createCompany>>;
  let admin: Record<string, string>;
  let staff: Record<string, string>;

  const erase = (id: number, headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1/admin/families/${id}/erase`, headers, payload });
  const ok = { confirmation: 'ERASE', reason: 'Asked by email on 3 March' };

  /** A family with a child, a past paid booking, a paid invoice, a waiver, a flag, a CRM lead, mail and consent. */
  async function family(
    companyId: number,
    name: string,
    email: string,
    childName: string,
    [medical, allergy, flagNote] = ['Eczema', 'Dairy', 'Runs off'],
  ) {
    const db = t.database.db;
    const tenant = new Tenant(companyId);
    const parent = await createUser(db, companyId, {
      role: 'student',
      fullName: name,
      email,
      phone: '0412 555 019',
    });
    const child = await createChild(db, companyId, parent.id, childName);
    await db
      .update(children)
      .set({ medicalNotes: `${medical}, cream in bag`, allergies: allergy })
      .where(eq(children.id, child.id));
    const fixture = await createBookableEvent(db, companyId);
    const { booking, payment } = await createConfirmedBooking(db, companyId, {
      parentId: parent.id,
      eventId: fixture.event.id,
      childIds: [child.id],
    });
    const [invoice] = await db
      .insert(invoices)
      .values(
        tenant.values({
          parentId: parent.id,
          kind: 'one_off' as const,
          status: 'paid' as const,
          number: parent.id,
          code: `INV-00${parent.id}`,
          buyerName: name,
          buyerEmail: email,
          gstRegistered: true,
          issuedOn: '2026-01-05',
          total: 12000,
          gst: 1091,
          amountPaid: 12000,
          notes: `Term fee for ${childName}`,
        }),
      )
      .returning();
    const waiver = await createWaiverTemplate(db, companyId);
    await db.insert(signedWaivers).values(
      tenant.values({
        waiverId: waiver.id,
        waiverVersion: 1,
        waiverTitle: waiver.title,
        bodyHtml: waiver.body,
        childId: child.id,
        parentId: parent.id,
        childFirstName: childName,
        childLastName: 'Tester',
        childDob: '2018-04-09',
        answers: { medical: `${medical}, cream in bag`, photo_consent: true },
        signerName: name,
        signerEmail: email,
        signaturePng: Buffer.from(SIGNATURE.split(',')[1]!, 'base64'),
        ip: '203.0.113.9',
        userAgent: 'test',
        contentHash: 'x',
      }),
    );
    const [flag] = await db
      .insert(flags)
      .values(tenant.values({ name: 'Behaviour' }))
      .returning();
    await db
      .insert(flagAssignments)
      .values(tenant.values({ flagId: flag!.id, childId: child.id, note: flagNote, appliedById: parent.id }));
    await db.insert(contacts).values(
      tenant.values({
        fullName: name,
        email,
        phone: '0412 555 019',
        source: 'website',
        stage: 'converted',
        parentId: parent.id,
      }),
    );
    await db.insert(mailOutbox).values(
      tenant.values({
        kind: 'booking-confirmation',
        toAddress: email,
        subject: `Booked, ${name}`,
        text: `Hi ${name}, ${childName} is in.`,
        html: '<p>Hi</p>',
      }),
    );
    await setMarketingConsent(db, tenant, parent.id, true, 'parent');
    await sessionFor(db, parent);
    return { parent, child, booking, payment, invoice: invoice! };
  }

  let erased: Awaited<ReturnType<typeof family>>;
  let keeper: Awaited<ReturnType<typeof family>>;
  let foreign: Awaited<ReturnType<typeof family>>;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    company = await createCompany(db);
    other = await createCompany(db);
    admin = (await sessionFor(db, await createUser(db, company.id, { fullName: 'Ada Admin' }))).headers;
    staff = (await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }))).headers;
    erased = await family(company.id, 'Priya Raman', 'priya.raman@example.com', 'Anika', [
      'Asthma',
      'Peanuts',
      'Bites',
    ]);
    keeper = await family(company.id, 'Tom Keeper', 'tom.keeper@example.com', 'Mila');
    foreign = await family(other.id, 'Olga Other', 'olga@example.com', 'Oskar');
    // The erased family's child was a guest at the keeper's (past) party.
    const setup = await createPartySetup(db, company.id);
    await createConfirmedParty(db, company.id, {
      parentId: keeper.parent.id,
      slotId: setup.morning.id,
      childId: keeper.child.id,
      date: '2025-06-07',
      guests: [
        { childName: 'Anika Tester', parentEmail: 'priya.raman@example.com' },
        { childName: 'Leo Stays', parentEmail: 'leo.parent@example.com' },
      ],
    });
  });
  afterAll(() => t.close());

  it('refuses without the typed confirmation, for staff, and for another company', async () => {
    expect((await erase(erased.parent.id, admin, { ...ok, confirmation: 'erase it' })).json().message).toBe(
      'Type ERASE to confirm.',
    );
    expect((await erase(erased.parent.id, admin, { ...ok, reason: ' ' })).statusCode).toBe(400);
    expect((await erase(erased.parent.id, staff, ok)).statusCode).toBe(403);
    expect((await erase(foreign.parent.id, admin, ok)).statusCode).toBe(404);
    expect((await erase(999_999, admin, ok)).statusCode).toBe(404);
    const [still] = await t.database.db.select().from(users).where(eq(users.id, erased.parent.id));
    expect(still!.fullName).toBe('Priya Raman');
  });

  it('refuses while the family owes money or has something to come, saying what to do', async () => {
    const db = t.database.db;
    await db
      .update(invoices)
      .set({ status: 'issued', amountPaid: 0 })
      .where(eq(invoices.id, keeper.invoice.id));
    const owing = await erase(keeper.parent.id, admin, ok);
    expect(owing.statusCode).toBe(409);
    expect(owing.json().message).toBe('This family owes money. Settle or write off its balance first.');
    await db
      .update(invoices)
      .set({ status: 'paid', amountPaid: 12000 })
      .where(eq(invoices.id, keeper.invoice.id));

    const tomorrow = addDays(todayIn(company.timeZone), 1);
    const fixture = await createBookableEvent(db, company.id);
    await db.insert(bookingPlaces).values(
      new Tenant(company.id).values({
        bookingId: keeper.booking.id,
        sessionId: fixture.session.id,
        date: tomorrow,
        places: 1,
        unitPrice: 4500,
      }),
    );
    const upcoming = await erase(keeper.parent.id, admin, ok);
    expect(upcoming.statusCode).toBe(409);
    expect(upcoming.json().message).toBe(
      'This family has upcoming bookings or class places. Cancel them first.',
    );
    const [child] = await db.select().from(children).where(eq(children.id, keeper.child.id));
    expect(child!.firstName).toBe('Mila');
  });

  it('erases every personal detail, keeps the money and the counts, and stops sign-in', async () => {
    const db = t.database.db;
    const password = erased.parent.password;
    const response = await erase(erased.parent.id, admin, ok);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ name: `Erased family ${erased.parent.id}` });

    // No column of any company table still holds the name, email, phone, child's name or medical note.
    const { rows: columns } = await t.database.pool.query<{ table_name: string; column_name: string }>(
      `select c.table_name, c.column_name from information_schema.columns c
         join information_schema.columns k on k.table_schema = c.table_schema and k.table_name = c.table_name and k.column_name = 'company_id'
        where c.table_schema = current_schema() and c.data_type in ('text', 'character varying', 'jsonb', 'json')`,
    );
    const found: string[] = [];
    for (const { table_name, column_name } of columns) {
      const { rows } = await t.database.pool.query(
        `select 1 from "${table_name}" where company_id = $1 and "${column_name}"::text ~* $2 limit 1`,
        [company.id, 'Priya|Raman|priya\\.raman@example\\.com|0412 555 019|Anika|Asthma|Peanuts|Bites'],
      );
      if (rows.length) found.push(`${table_name}.${column_name}`);
    }
    // The keeper family shares the phone number on purpose: only its rows may still hold it.
    const { rows: keeperRows } = await t.database.pool.query(
      `select 1 from users where id = $1 and phone = '0412 555 019'`,
      [keeper.parent.id],
    );
    expect(keeperRows.length).toBe(1);
    expect(found.filter((f) => !['users.phone', 'contacts.phone'].includes(f))).toEqual([]);

    // The family's mail still waiting is not sent (its address is now the placeholder); the keeper's still goes.
    const outbox = await db
      .select({ toAddress: mailOutbox.toAddress, status: mailOutbox.status, lastError: mailOutbox.lastError })
      .from(mailOutbox)
      .where(new Tenant(company.id).where(mailOutbox))
      .orderBy(mailOutbox.id);
    expect(outbox).toEqual([
      { toAddress: `Erased family ${erased.parent.id}`, status: 'failed', lastError: withdrawnForErasure },
      { toAddress: 'tom.keeper@example.com', status: 'pending', lastError: null },
    ]);
    const { rows: phones } = await t.database.pool.query(
      `select id from users where company_id = $1 and phone = '0412 555 019'`,
      [company.id],
    );
    expect(phones.map((r) => r.id)).toEqual([keeper.parent.id]);

    const [parent] = await db.select().from(users).where(eq(users.id, erased.parent.id));
    expect(parent).toMatchObject({
      fullName: `Erased family ${erased.parent.id}`,
      phone: null,
      status: 'disabled',
    });
    const [child] = await db.select().from(children).where(eq(children.id, erased.child.id));
    expect(child).toMatchObject({
      firstName: 'Erased',
      dob: '1900-01-01',
      medicalNotes: null,
      allergies: null,
    });
    const [waiver] = await db.select().from(signedWaivers).where(eq(signedWaivers.childId, erased.child.id));
    expect(waiver!.signaturePng.length).toBe(0);
    expect(waiver!.answers).toEqual({});
    expect(
      await db.select().from(flagAssignments).where(eq(flagAssignments.childId, erased.child.id)),
    ).toEqual([]);
    const [consent] = await db
      .select()
      .from(marketingConsents)
      .where(eq(marketingConsents.parentId, erased.parent.id));
    expect(consent!.status).toBe('withdrawn');
    const sessions = await db.select().from(authSessions).where(eq(authSessions.userId, erased.parent.id));
    for (const session of sessions) expect(session.revokedAt).not.toBeNull();

    // Money and counts stay.
    const [invoice] = await db.select().from(invoices).where(eq(invoices.id, erased.invoice.id));
    expect(invoice).toMatchObject({
      total: 12000,
      gst: 1091,
      amountPaid: 12000,
      code: `INV-00${erased.parent.id}`,
      issuedOn: '2026-01-05',
      status: 'paid',
    });
    expect(invoice!.buyerName).toBe(`Erased family ${erased.parent.id}`);
    const [booking] = await db.select().from(bookings).where(eq(bookings.id, erased.booking.id));
    expect(booking).toMatchObject({ quantity: 1, total: 4500, status: 'confirmed' });

    // Another family of the same company and the other company are untouched.
    const [kept] = await db.select().from(users).where(eq(users.id, keeper.parent.id));
    expect(kept!.fullName).toBe('Tom Keeper');
    const { rows: guests } = await t.database.pool.query<{ child_name: string; parent_email: string }>(
      'select child_name, parent_email from party_guests where company_id = $1 order by position',
      [company.id],
    );
    expect(guests).toEqual([
      { child_name: `Erased family ${erased.parent.id}`, parent_email: `Erased family ${erased.parent.id}` },
      { child_name: 'Leo Stays', parent_email: 'leo.parent@example.com' },
    ]);
    const [keptInvoice] = await db.select().from(invoices).where(eq(invoices.id, keeper.invoice.id));
    expect(keptInvoice!.notes).toBe('Term fee for Mila');
    const [foreignParent] = await db.select().from(users).where(eq(users.id, foreign.parent.id));
    expect(foreignParent!.fullName).toBe('Olga Other');

    // Nobody signs in as the family any more.
    await expect(
      signIn(t.app, { email: 'priya.raman@example.com', password }, company.authhash),
    ).rejects.toThrow();
    await expect(signIn(t.app, { email: parent!.email, password }, company.authhash)).rejects.toThrow();
    expect(sessions.length).toBeGreaterThan(0);

    // Audited: who and why, not what was erased.
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, 'erase'));
    expect(entry).toMatchObject({ actorName: 'Ada Admin', entity: 'users', entityId: erased.parent.id });
    expect(entry!.summary).toContain('Asked by email on 3 March');
    expect(JSON.stringify(entry)).not.toMatch(/Priya|Anika|priya\.raman/);

    // Once is enough.
    expect((await erase(erased.parent.id, admin, ok)).statusCode).toBe(409);
  });
});
