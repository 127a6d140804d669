import { familyInviteMessages } from '@tumble/contracts/class-students';
import { messages } from '@tumble/contracts/messages';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { createCompany, createUser, sessionFor, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { registrationForms } from '../registration/registration.tables.ts';
import { children } from '../students/students.tables.ts';
import { users } from './accounts.tables.ts';

type Headers = Record<string, string>;

describe('family invitation (students/invite)', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let staff: Headers;
  let coach: Headers;
  let foreignAdmin: Headers;

  const invite = (headers: Headers, overrides: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/students/invite',
      headers,
      payload: {
        full_name: 'Jamie Family',
        email: 'Jamie@Example.test',
        phone: '0400 111 222',
        form_key: 'term-classes',
        children: [
          { first_name: 'Mia', last_name: 'Family', dob: '2019-04-09' },
          { first_name: 'Leo', last_name: 'Family', dob: '2021-08-01' },
        ],
        ...overrides,
      },
    });
  const familiesNamed = (email: string) =>
    t.database.db
      .select()
      .from(users)
      .where(and(eq(users.companyId, company.id), eq(users.email, email)));

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    company = await createCompany(db);
    staff = (
      await sessionFor(db, await createUser(db, company.id, { role: 'companystaff', fullName: 'Sam Staff' }))
    ).headers;
    coach = (await sessionFor(db, await createUser(db, company.id, { role: 'companycoach' }))).headers;
    await db
      .insert(registrationForms)
      .values({ companyId: company.id, key: 'term-classes', name: 'Term classes' });
    const other = await createCompany(db);
    await db.insert(registrationForms).values({ companyId: other.id, key: 'theirs', name: 'Their form' });
    foreignAdmin = (await sessionFor(db, await createUser(db, other.id))).headers;
  });
  afterAll(() => t.close());

  it('creates the pending family once with its children and mails the link, even when sent twice at once', async () => {
    const forms = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/students/invite/forms',
      headers: staff,
    });
    expect(forms.json()).toEqual([{ key: 'term-classes', name: 'Term classes' }]);

    const answers = await Promise.all([invite(staff), invite(staff)]);
    const valid = answers.map((a) => a.json()).filter((a) => a.valid);
    expect(valid).toHaveLength(1);
    expect(valid[0].info.message).toBe(familyInviteMessages.sent('jamie@example.test'));
    const refused = answers.map((a) => a.json()).find((a) => !a.valid);
    expect(refused.error.element).toEqual([{ name: 'email', messages: [familyInviteMessages.emailTaken] }]);

    const [parent, ...others] = await familiesNamed('jamie@example.test');
    expect(others).toHaveLength(0);
    expect(parent).toMatchObject({
      role: 'student',
      status: 'pending',
      fullName: 'Jamie Family',
      phone: '0400 111 222',
    });
    const kids = await t.database.db.select().from(children).where(eq(children.parentId, parent!.id));
    expect(kids.map((k) => `${k.firstName} ${k.dob}`).sort()).toEqual(['Leo 2021-08-01', 'Mia 2019-04-09']);
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.companyId, company.id), eq(mailOutbox.kind, 'family-invitation')));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Sam Staff at');
    expect(mails[0]!.text).toContain('for Mia, Leo');

    // Again later: refused with a clear message, nothing new.
    const again = (await invite(staff, { email: 'jamie@example.test' })).json();
    expect(again).toMatchObject({ valid: false, error: { html_message: familyInviteMessages.emailTaken } });
    expect(await familiesNamed('jamie@example.test')).toHaveLength(1);
  });

  it('lets the parent choose a password once and sends them to the registration form', async () => {
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.companyId, company.id), eq(mailOutbox.kind, 'family-invitation')));
    const link = new URL(mail!.data.link!);
    expect(link.pathname).toBe('/admin/students/invite/accept');
    expect(link.searchParams.get('f')).toBe('term-classes');
    expect(link.searchParams.get('authhash')).toBe(company.authhash);
    const hashcode = link.searchParams.get('hashcode')!;

    const check = await t.app.inject({ method: 'GET', url: `/api/v1/students/invite?hashcode=${hashcode}` });
    expect(check.json()).toEqual({ state: 1, full_name: 'Jamie Family', email: 'jamie@example.test' });

    const accept = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/students/invite?f=term-classes',
        payload: { hashcode, password, password2: password },
      });
    const short = (await accept('short')).json();
    expect(short).toMatchObject({ valid: false, field: 'password' });
    const set = (await accept('a family password')).json();
    expect(set).toEqual({
      valid: true,
      email: 'jamie@example.test',
      authhash: company.authhash,
      redirect: `/registration/?f=term-classes&authhash=${encodeURIComponent(company.authhash)}`,
    });
    const [parent] = await familiesNamed('jamie@example.test');
    expect(parent!.status).toBe('active');
    await signIn(t.app, { email: 'jamie@example.test', password: 'a family password' }, company.authhash);

    expect((await accept('another password')).json()).toEqual({
      valid: false,
      message: messages.activationInvalid,
    });
    const used = await t.app.inject({ method: 'GET', url: `/api/v1/students/invite?hashcode=${hashcode}` });
    expect(used.json().state).toBe(0);
  });

  it('refuses another company’s form, a coach, and bad input, and writes nothing', async () => {
    const before = (await t.database.db.select().from(users)).length;
    const foreignForm = (await invite(staff, { email: 'other@example.test', form_key: 'theirs' })).json();
    expect(foreignForm).toMatchObject({
      valid: false,
      error: { element: [{ name: 'form_key', messages: [familyInviteMessages.formNotFound] }] },
    });
    // Another company's staff cannot land a family on this company's form either.
    const theirs = (await invite(foreignAdmin, { email: 'x@example.test' })).json();
    expect(theirs.error.element[0].name).toBe('form_key');
    expect((await invite(coach, { email: 'coach@example.test' })).statusCode).toBe(403);
    const noChildren = (await invite(staff, { email: 'kids@example.test', children: [] })).json();
    expect(noChildren.error.element).toEqual([
      { name: 'children', messages: ['Please add at least one child.'] },
    ]);
    expect((await t.database.db.select().from(users)).length).toBe(before);
  });
});
