import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { TOO_MANY_ATTEMPTS } from '../../platform/throttle.ts';
import { todayIn } from '../../platform/time.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { users } from '../accounts/accounts.tables.ts';
import { terms } from '../classes/classes.tables.ts';
import { children } from '../students/students.tables.ts';
import { DEFAULT_SOURCES, DEFAULT_STAGES } from './crm.service.ts';
import { contactNotes, contacts, crmSettings } from './crm.tables.ts';

type Headers = Record<string, string>;

describe('CRM: contacts, settings/crm, convert, enquiries, reports by source', () => {
  let t: TestContext;
  let companyId: number;
  let authhash: string;
  let admin: Headers;
  let staff: Headers;
  let coach: Headers;
  let foreignAdmin: Headers;
  let foreignContact: number;
  let adminEmail: string;

  const send = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const rowsOf = () => t.database.db.select().from(contacts).where(eq(contacts.companyId, companyId));
  const mailsOf = (kind: string) =>
    t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.companyId, companyId), eq(mailOutbox.kind, kind)));
  const lead = (overrides: object = {}) => ({
    full_name: 'Pat Lee',
    email: 'pat@example.test',
    phone: '0400 111 222',
    children: [{ name: 'Milo', age: 5 }],
    interest: 'Kinder gym',
    source: 'Walk-in',
    stage: 'New',
    follow_up_on: '',
    note: 'Came in on Saturday.',
    ...overrides,
  });
  const addLead = async (overrides: object = {}) => {
    const answer = await send('POST', '/api/v1/admin/contacts', staff, lead(overrides));
    expect(answer.json()).toMatchObject({ valid: true });
    return Number(answer.json().redirect.split('/').at(-1));
  };

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db, { timeZone: 'Australia/Sydney' });
    companyId = company.id;
    authhash = company.authhash;
    const adminUser = await createUser(db, companyId, { role: 'companyadmin', fullName: 'Ada Admin' });
    adminEmail = adminUser.email;
    admin = (await sessionFor(db, adminUser)).headers;
    staff = (
      await sessionFor(db, await createUser(db, companyId, { role: 'companystaff', fullName: 'Sam Staff' }))
    ).headers;
    coach = (await sessionFor(db, await createUser(db, companyId, { role: 'companycoach' }))).headers;
    const foreign = await createCompany(db);
    foreignAdmin = (await sessionFor(db, await createUser(db, foreign.id, { role: 'companyadmin' }))).headers;
    const [theirs] = await db
      .insert(contacts)
      .values({
        companyId: foreign.id,
        fullName: 'Theirs',
        email: 'theirs@example.test',
        source: 'Walk-in',
        stage: 'New',
      })
      .returning();
    foreignContact = theirs!.id;
  });

  afterAll(() => t.close());

  describe('settings/crm', () => {
    it('reads the defaults without writing them, refuses bad lists with field messages, saves good ones', async () => {
      const read = await send('GET', '/api/v1/admin/settings/crm', staff);
      expect(read.json()).toEqual({ sources: DEFAULT_SOURCES, stages: DEFAULT_STAGES, saved: false });
      const stored = () =>
        t.database.db.select().from(crmSettings).where(eq(crmSettings.companyId, companyId));
      expect(await stored()).toEqual([]);

      const noWon = await send('PUT', '/api/v1/admin/settings/crm', admin, {
        sources: ['Walk-in', 'Walk-in'],
        stages: [
          { name: 'New', kind: 'open' },
          { name: 'Lost', kind: 'lost' },
        ],
      });
      expect(noWon.json()).toMatchObject({ valid: false });
      const fields = Object.fromEntries(
        noWon.json().error.element.map((e: { name: string; messages: string[] }) => [e.name, e.messages]),
      );
      expect(fields.sources).toEqual([
        'Each source may appear only once.',
        'Keep “Enquiry form”: enquiries from the registration page arrive with it.',
      ]);
      expect(fields.stages).toEqual(['Mark exactly one stage as Won: converting a lead moves it there.']);
      expect(await stored()).toEqual([]);

      // Staff read the settings; only an administrator changes them.
      const sources = ['Walk-in', 'Website', 'Instagram', 'Enquiry form'];
      const stages = [
        ...DEFAULT_STAGES.slice(0, 3),
        { name: 'Enrolled', kind: 'won' },
        { name: 'Lost', kind: 'lost' },
      ];
      expect((await send('PUT', '/api/v1/admin/settings/crm', staff, { sources, stages })).statusCode).toBe(
        403,
      );
      const saved = await send('PUT', '/api/v1/admin/settings/crm', admin, { sources, stages });
      expect(saved.json()).toMatchObject({ valid: true });
      expect((await send('GET', '/api/v1/admin/settings/crm', staff)).json()).toEqual({
        sources,
        stages,
        saved: true,
      });
      expect((await send('GET', '/api/v1/admin/settings/crm', foreignAdmin)).json()).toMatchObject({
        saved: false,
      });
    });
  });

  describe('contacts', () => {
    it('refuses bad input with the field’s message and stores nothing', async () => {
      const before = await rowsOf();
      const cases: [object, string, string][] = [
        [{ full_name: '  ' }, 'full_name', 'Enter the parent’s name.'],
        [{ email: '', phone: '' }, 'email', 'Enter an email address or a phone number.'],
        [{ email: 'not-an-email' }, 'email', 'Enter a valid email address.'],
        [{ follow_up_on: '2026-02-30' }, 'follow_up_on', 'Enter a real date.'],
        [{ children: [{ name: 'Milo', age: 40 }] }, 'children.0.age', 'Enter an age in years (0 to 18).'],
        [{ source: 'Billboard' }, 'source', 'Choose one of the company’s lead sources.'],
        [{ stage: 'Maybe' }, 'stage', 'Choose one of the company’s stages.'],
      ];
      for (const [change, field, message] of cases) {
        const answer = await send('POST', '/api/v1/admin/contacts', staff, lead(change));
        expect(answer.statusCode).toBe(200);
        expect(answer.json().valid).toBe(false);
        expect(answer.json().error.element).toContainEqual({ name: field, messages: [message] });
      }
      expect(await rowsOf()).toEqual(before);
    });

    it('adds, lists with search and filters, counts follow-ups due, edits, logs notes; coaches and other companies are kept out', async () => {
      const today = todayIn('Australia/Sydney');
      const pat = await addLead({ follow_up_on: today });
      await addLead({
        full_name: 'Robin Ng',
        email: 'robin@example.test',
        source: 'Website',
        stage: 'Contacted',
      });
      await addLead({
        full_name: 'Lost Lou',
        email: 'lou@example.test',
        stage: 'Lost',
        follow_up_on: '2020-01-01',
      });

      const list = async (query = '') => (await send('GET', `/api/v1/admin/contacts${query}`, staff)).json();
      const names = (body: { contacts: { full_name: string }[] }) =>
        body.contacts.map((c) => c.full_name).sort();
      expect(names(await list())).toEqual(['Lost Lou', 'Pat Lee', 'Robin Ng']);
      expect(names(await list('?q=robin%40'))).toEqual(['Robin Ng']);
      expect(names(await list('?q=%25'))).toEqual([]); // a % is searched for, not a wildcard
      expect(names(await list('?source=Website'))).toEqual(['Robin Ng']);
      expect(names(await list('?stage=Lost'))).toEqual(['Lost Lou']);
      // A lost lead's old follow-up date is not due: only open stages need following up.
      const due = await list('?due=true');
      expect(names(due)).toEqual(['Pat Lee']);
      expect(due.due_count).toBe(1);
      expect(due.contacts[0]).toMatchObject({ follow_up_due: true, stage_kind: 'open' });

      const view = await send('GET', `/api/v1/admin/contacts/${pat}`, staff);
      expect(view.json().contact).toMatchObject({
        full_name: 'Pat Lee',
        email: 'pat@example.test',
        children: [{ name: 'Milo', age: 5, dob: null }],
        interest: 'Kinder gym',
        source: 'Walk-in',
        stage: 'New',
      });
      expect(view.json().notes).toMatchObject([{ body: 'Came in on Saturday.', author: 'Sam Staff' }]);

      const moved = await send('PUT', `/api/v1/admin/contacts/${pat}`, staff, {
        ...lead({ stage: 'Trial booked', follow_up_on: '2099-01-01' }),
        note: '',
      });
      expect(moved.json()).toMatchObject({ valid: true });
      const note = await send('POST', `/api/v1/admin/contacts/${pat}/notes`, staff, {
        body: 'Booked a trial.',
      });
      expect(note.json()).toMatchObject({ valid: true });
      const after = (await send('GET', `/api/v1/admin/contacts/${pat}`, staff)).json();
      expect(after.contact).toMatchObject({
        stage: 'Trial booked',
        follow_up_on: '2099-01-01',
        follow_up_due: false,
      });
      expect(after.notes.map((n: { body: string }) => n.body)).toEqual([
        'Booked a trial.',
        'Came in on Saturday.',
      ]);
      const empty = await send('POST', `/api/v1/admin/contacts/${pat}/notes`, staff, { body: ' ' });
      expect(empty.json().error.element).toEqual([{ name: 'body', messages: ['Write the note first.'] }]);
      const audits = await t.database.db
        .select()
        .from(auditLog)
        .where(
          and(eq(auditLog.companyId, companyId), eq(auditLog.entity, 'contacts'), eq(auditLog.entityId, pat)),
        );
      expect(audits.map((a) => a.action)).toEqual(['create', 'update', 'note']);

      expect((await send('GET', '/api/v1/admin/contacts', coach)).statusCode).toBe(403);
      const snapshot = await t.database.db.select().from(contacts).where(eq(contacts.id, foreignContact));
      for (const [method, url, body] of [
        ['GET', `/api/v1/admin/contacts/${foreignContact}`, undefined],
        ['PUT', `/api/v1/admin/contacts/${foreignContact}`, lead()],
        ['POST', `/api/v1/admin/contacts/${foreignContact}/notes`, { body: 'Hijack' }],
        ['POST', `/api/v1/admin/contacts/${foreignContact}/convert`, { children: [] }],
      ] as const) {
        expect((await send(method, url, staff, body)).statusCode).toBe(404);
      }
      expect(await t.database.db.select().from(contacts).where(eq(contacts.id, foreignContact))).toEqual(
        snapshot,
      );
      expect(
        await t.database.db.select().from(contactNotes).where(eq(contactNotes.contactId, foreignContact)),
      ).toEqual([]);
    });
  });

  describe('converting a lead to a family', () => {
    it('makes the invited parent and the children, links the lead (Won), and refuses a second time', async () => {
      const id = await addLead({
        full_name: 'Casey Brown',
        email: 'Casey@Example.test',
        stage: 'Trial booked',
      });
      const bad = await send('POST', `/api/v1/admin/contacts/${id}/convert`, staff, {
        children: [{ first_name: 'Ivy', last_name: 'Brown', dob: '' }],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Enter the child’s date of birth.');

      const converted = await send('POST', `/api/v1/admin/contacts/${id}/convert`, staff, {
        children: [
          { first_name: 'Ivy', last_name: 'Brown', dob: '2019-04-02' },
          { first_name: 'Max', last_name: 'Brown', dob: '2021-08-15' },
        ],
      });
      expect(converted.json()).toMatchObject({ valid: true });
      const parentId = converted.json().parent_id as number;
      const [parent] = await t.database.db.select().from(users).where(eq(users.id, parentId));
      expect(parent).toMatchObject({
        companyId,
        role: 'student',
        status: 'pending',
        email: 'casey@example.test',
        fullName: 'Casey Brown',
      });
      const kids = await t.database.db.select().from(children).where(eq(children.parentId, parentId));
      expect(kids.map((k) => [k.firstName, k.dob]).sort()).toEqual([
        ['Ivy', '2019-04-02'],
        ['Max', '2021-08-15'],
      ]);
      const invitations = (await mailsOf('family-invitation')).filter(
        (m) => m.toAddress === 'casey@example.test',
      );
      expect(invitations).toHaveLength(1);
      expect(invitations[0]!.text).toContain('Ivy, Max');
      const view = (await send('GET', `/api/v1/admin/contacts/${id}`, staff)).json();
      expect(view.contact).toMatchObject({
        stage: 'Enrolled', // the company's won stage (saved in the settings test)
        stage_kind: 'won',
        parent_id: parentId,
        family_name: 'Casey Brown',
      });
      expect(view.contact.converted_at).not.toBeNull();
      expect(view.notes[0].body).toBe(
        'Converted to a family with 2 children; invitation mailed to casey@example.test.',
      );
      const [audit] = await t.database.db
        .select()
        .from(auditLog)
        .where(
          and(eq(auditLog.entity, 'contacts'), eq(auditLog.entityId, id), eq(auditLog.action, 'convert')),
        );
      expect(audit).toBeDefined();

      const usersBefore = await t.database.db.select().from(users).where(eq(users.companyId, companyId));
      const again = await send('POST', `/api/v1/admin/contacts/${id}/convert`, staff, { children: [] });
      expect(again.json()).toEqual({ valid: false, message: 'This lead is already a family.' });
      expect(await t.database.db.select().from(users).where(eq(users.companyId, companyId))).toEqual(
        usersBefore,
      );
      expect(
        (await mailsOf('family-invitation')).filter((m) => m.toAddress === 'casey@example.test'),
      ).toHaveLength(1);
    });

    it('two convert clicks at once make one family', async () => {
      const id = await addLead({ full_name: 'Dana Twice', email: 'dana@example.test' });
      const convert = () =>
        send('POST', `/api/v1/admin/contacts/${id}/convert`, staff, {
          children: [{ first_name: 'Ola', last_name: 'Twice', dob: '2020-01-01' }],
        });
      const answers = (await Promise.all([convert(), convert()])).map((a) => a.json());
      expect(answers.map((a) => a.valid).sort()).toEqual([false, true]);
      expect(answers.find((a) => !a.valid)).toEqual({
        valid: false,
        message: 'This lead is already a family.',
      });
      const parents = await t.database.db
        .select()
        .from(users)
        .where(and(eq(users.companyId, companyId), eq(users.email, 'dana@example.test')));
      expect(parents).toHaveLength(1);
      expect(
        await t.database.db.select().from(children).where(eq(children.parentId, parents[0]!.id)),
      ).toHaveLength(1);
    });

    it('refuses an email that is already a family and offers to link to it instead', async () => {
      const family = await createUser(t.database.db, companyId, {
        role: 'student',
        fullName: 'Jo Walker',
        email: 'jo@example.test',
      });
      const id = await addLead({ full_name: 'Jo W', email: 'jo@example.test', source: 'Instagram' });
      const usersBefore = await t.database.db.select().from(users).where(eq(users.companyId, companyId));
      const refused = await send('POST', `/api/v1/admin/contacts/${id}/convert`, staff, { children: [] });
      expect(refused.json()).toEqual({
        valid: false,
        message:
          'That email already belongs to the family of Jo Walker. Link the lead to that family instead.',
        existing_family: { parent_id: family.id, name: 'Jo Walker' },
      });
      expect(await t.database.db.select().from(users).where(eq(users.companyId, companyId))).toEqual(
        usersBefore,
      );
      expect((await send('GET', `/api/v1/admin/contacts/${id}`, staff)).json().contact.parent_id).toBeNull();

      const staffUser = (await t.database.db.select().from(users).where(eq(users.companyId, companyId))).find(
        (u) => u.role === 'companystaff',
      )!;
      const notFamily = await send('POST', `/api/v1/admin/contacts/${id}/link`, staff, {
        parent_id: staffUser.id,
      });
      expect(notFamily.statusCode).toBe(404);
      const linked = await send('POST', `/api/v1/admin/contacts/${id}/link`, staff, { parent_id: family.id });
      expect(linked.json()).toEqual({
        valid: true,
        message: 'Linked to the family of Jo Walker.',
        parent_id: family.id,
      });
      const again = await send('POST', `/api/v1/admin/contacts/${id}/link`, staff, { parent_id: family.id });
      expect(again.json()).toMatchObject({ valid: false, message: 'This lead is already a family.' });
    });
  });

  describe('the public enquiry', () => {
    const enquire = (payload: object, headers: Headers = {}) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/registration/enquiry?authhash=${authhash}`,
        headers: { 'x-forwarded-for': '203.0.113.9', ...headers },
        payload,
      });
    const enquiry = (overrides: object = {}) => ({
      full_name: 'Mia Parent',
      email: 'mia@example.test',
      phone: '0411 222 333',
      children: [{ name: 'Leo', age: 4 }],
      message: 'Do you run classes on Saturdays?',
      ...overrides,
    });

    it('bad input gets the field messages and stores nothing', async () => {
      const before = await rowsOf();
      const answer = await enquire(
        enquiry({ full_name: '', email: 'nope', children: [{ name: 'Leo', age: 'x' }] }),
      );
      expect(answer.json().valid).toBe(false);
      expect(answer.json().error.element).toEqual([
        { name: 'full_name', messages: ['Enter your name.'] },
        { name: 'email', messages: ['Enter a valid email address.'] },
        { name: 'children.0.age', messages: ['Enter an age in years (0 to 18).'] },
      ]);
      expect(await rowsOf()).toEqual(before);
      expect(await mailsOf('crm-enquiry')).toEqual([]);
      expect((await enquire(enquiry())).statusCode).toBe(200);
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/v1/registration/enquiry?authhash=nobody',
        payload: enquiry(),
      });
      expect(unknown.statusCode).toBe(404);
    });

    it('becomes a contact with source Enquiry form and mails the company; an eleventh from one email is throttled', async () => {
      const email = 'busy@example.test';
      const answer = await enquire(enquiry({ email: 'Busy@Example.test' }));
      expect(answer.json()).toEqual({
        valid: true,
        info: {
          title: 'Enquiry sent',
          message: 'Thank you! We have your enquiry and will be in touch soon.',
        },
      });
      const [row] = (await rowsOf()).filter((c) => c.email === email);
      expect(row).toMatchObject({
        fullName: 'Mia Parent',
        phone: '0411 222 333',
        source: 'Enquiry form',
        stage: 'New',
        children: [{ name: 'Leo', age: 4, dob: null }],
        followUpOn: todayIn('Australia/Sydney'),
        createdById: null,
      });
      const notes = await t.database.db
        .select()
        .from(contactNotes)
        .where(eq(contactNotes.contactId, row!.id));
      expect(notes).toMatchObject([{ body: 'Do you run classes on Saturdays?', authorId: null }]);
      const mails = (await mailsOf('crm-enquiry')).filter((m) => m.text.includes(email));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.toAddress).toBe(adminEmail);
      expect(mails[0]!.subject).toBe('New enquiry from Mia Parent');
      expect(mails[0]!.text).toContain(`http://tumble.test/admin/contacts/${row!.id}`);
      expect(mails[0]!.text).toContain('Children: Leo, age 4');

      for (let i = 2; i <= 10; i += 1) expect((await enquire(enquiry({ email }))).statusCode).toBe(200);
      const stored = (await rowsOf()).filter((c) => c.email === email).length;
      expect(stored).toBe(10);
      const eleventh = await enquire(enquiry({ email }));
      expect(eleventh.statusCode).toBe(429);
      expect(eleventh.json().message).toBe(TOO_MANY_ATTEMPTS);
      expect((await rowsOf()).filter((c) => c.email === email)).toHaveLength(10);
      expect((await mailsOf('crm-enquiry')).filter((m) => m.text.includes(email))).toHaveLength(10);
    });
  });

  describe('reports by lead source', () => {
    it('trial conversions count leads and families by source; enrolment comparison counts conversions per term', async () => {
      const { db } = t.database;
      const reportCompany = await createCompany(db, { timeZone: 'Australia/Sydney' });
      const c = reportCompany.id;
      const headers = (await sessionFor(db, await createUser(db, c, { role: 'companystaff' }))).headers;
      const family = await createUser(db, c, { role: 'student' });
      // 23:30 UTC on 31 March is 1 April in Sydney: the company's dates decide the period.
      const at = (iso: string) => new Date(iso);
      await db.insert(contacts).values([
        {
          companyId: c,
          fullName: 'A',
          source: 'Website',
          stage: 'New',
          createdAt: at('2026-03-02T01:00:00Z'),
        },
        {
          companyId: c,
          fullName: 'B',
          source: 'Website',
          stage: 'Won',
          createdAt: at('2026-03-03T01:00:00Z'),
          parentId: family.id,
          convertedAt: at('2026-03-10T01:00:00Z'),
        },
        {
          companyId: c,
          fullName: 'C',
          source: 'Referral',
          stage: 'New',
          createdAt: at('2026-03-31T23:30:00Z'),
        },
        {
          companyId: c,
          fullName: 'D',
          source: 'Referral',
          stage: 'Won',
          createdAt: at('2025-03-05T01:00:00Z'),
          parentId: family.id,
          convertedAt: at('2025-03-06T01:00:00Z'),
        },
      ]);
      const trials = await send(
        'GET',
        '/api/v1/admin/reports/trial-conversions?from=2026-03-01&to=2026-03-31',
        headers,
      );
      expect(trials.statusCode).toBe(200);
      expect(trials.json().data.leadSources).toEqual([
        { source: 'Website', leads: 2, converted: 1, rate: 50 },
      ]);

      const term = async (name: string, startDate: string, endDate: string) =>
        (
          await db
            .insert(terms)
            .values({ companyId: c, name, startDate, endDate, status: 'open' })
            .returning()
        )[0]!.id;
      await term('Term 1 2025', '2025-02-03', '2025-04-11');
      await term('Term 4 2025', '2025-10-13', '2025-12-19');
      const current = await term('Term 1 2026', '2026-02-02', '2026-04-10');
      const comparison = await send(
        'GET',
        `/api/v1/admin/reports/enrollment-comparison?term=${current}`,
        headers,
      );
      expect(comparison.statusCode).toBe(200);
      expect(comparison.json().data.leadSources).toEqual([
        { source: 'Referral', current: 0, previous: 0, lastYear: 1 },
        { source: 'Website', current: 1, previous: 0, lastYear: 0 },
      ]);
    });
  });
});
