import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { newFileKey } from '../../platform/files.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild } from '../../testing/waiver-fixtures.ts';
import { companies } from '../accounts/accounts.tables.ts';
import { isSecretColumn } from './export.service.ts';

const RESET_TOKEN = 'q7Vb2kR9xLm4Tz8wPn3sYc6dHf1gJa5e';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

describe('company data export', () => {
  let t: TestContext;
  let mine: Awaited<ReturnType<typeof createCompany>>;
  let theirs: Awaited<ReturnType<typeof createCompany>>;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let myLogo: string;
  let theirLogo: string;

  const download = async (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/v1/admin/company-data/export', headers });

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    mine = await createCompany(db, { name: 'Mine Gym' });
    theirs = await createCompany(db, { name: 'Theirs Gym' });
    myLogo = newFileKey('public', mine.id, 'png');
    theirLogo = newFileKey('public', theirs.id, 'png');
    await t.deps.files.put(myLogo, PNG);
    await t.deps.files.put(theirLogo, PNG);
    await db.update(companies).set({ logoFile: myLogo }).where(eq(companies.id, mine.id));
    await db.update(companies).set({ logoFile: theirLogo }).where(eq(companies.id, theirs.id));
    admin = (await sessionFor(db, await createUser(db, mine.id, { fullName: 'Ada Admin' }))).headers;
    staff = (await sessionFor(db, await createUser(db, mine.id, { role: 'companystaff' }))).headers;
    const myParent = await createUser(db, mine.id, { role: 'student', email: 'mine.parent@example.com' });
    await createChild(db, mine.id, myParent.id, 'Minnie');
    const theirParent = await createUser(db, theirs.id, {
      role: 'student',
      email: 'their.parent@example.com',
    });
    await createChild(db, theirs.id, theirParent.id, 'Theodora');
    await sessionFor(db, theirParent);
    await db.insert(mailOutbox).values({
      companyId: mine.id,
      kind: 'password-reset',
      toAddress: 'mine.parent@example.com',
      subject: 'Reset your password',
      text: `Reset: http://tumble.test/admin/reset?token=${RESET_TOKEN}`,
      html: `<a href="http://tumble.test/admin/reset/${RESET_TOKEN}">Reset</a>`,
      data: { link: `http://tumble.test/admin/reset?token=${RESET_TOKEN}` },
    });
  });
  afterAll(() => t.close());

  it('is for the company admin only', async () => {
    expect((await download(staff)).statusCode).toBe(403);
    expect((await download({})).statusCode).toBe(401);
  });

  it("holds a CSV of every company table with exactly that company's rows, no secret, and its files", async () => {
    const response = await download(admin);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    const zip = unzipSync(new Uint8Array(response.rawPayload));

    // Every table with a company_id column, from the catalogue, plus the company's own row.
    const { rows: catalogue } = await t.database.pool.query<{ table_name: string }>(
      `select distinct table_name from information_schema.columns
        where table_schema = current_schema() and column_name = 'company_id'
          and table_name in (select table_name from information_schema.tables
                              where table_schema = current_schema() and table_type = 'BASE TABLE')`,
    );
    const expected = [...catalogue.map((r) => `${r.table_name}.csv`), 'companies.csv'].sort();
    const csvs = Object.keys(zip)
      .filter((name) => name.endsWith('.csv'))
      .sort();
    expect(csvs).toEqual(expected);
    expect(csvs.length).toBeGreaterThan(40);

    for (const name of csvs) {
      const table = name.replace(/\.csv$/, '');
      const rows: Record<string, string>[] = parse(strFromU8(zip[name]!), { columns: true });
      const header = strFromU8(zip[name]!).split('\r\n')[0]!.split(',');
      for (const column of header) expect(isSecretColumn(column), `${table}.${column}`).toBe(false);
      if (table === 'companies') {
        expect(rows.map((r) => r.id)).toEqual([String(mine.id)]);
        continue;
      }
      for (const row of rows) expect(row.company_id, table).toBe(String(mine.id));
      const { rows: count } = await t.database.pool.query<{ n: number }>(
        `select count(*)::int as n from "${table}" where company_id = $1`,
        [mine.id],
      );
      expect(rows.length, table).toBe(count[0]!.n);
    }

    const everything = Object.values(zip)
      .map((bytes) => strFromU8(bytes, true))
      .join('\n');
    expect(everything).toContain('mine.parent@example.com');
    expect(everything).toContain('Minnie');
    // The mail is there, its live link's token is not.
    expect(strFromU8(zip['mail_outbox.csv']!)).toContain('Reset your password');
    expect(everything).not.toContain(RESET_TOKEN);
    // Nothing of the other company, not even its name.
    expect(everything).not.toContain('their.parent@example.com');
    expect(everything).not.toContain('Theodora');
    expect(everything).not.toContain('Theirs Gym');

    const users: Record<string, string>[] = parse(strFromU8(zip['users.csv']!), { columns: true });
    expect(users.length).toBe(3);
    expect(Object.keys(users[0]!)).not.toContain('password_hash');
    expect(strFromU8(zip['auth_sessions.csv']!).split('\r\n')[0]).not.toContain('token_hash');

    // The logo the company row names, and never another company's file.
    expect(Buffer.from(zip[`files/${myLogo}`]!).equals(PNG)).toBe(true);
    expect(Object.keys(zip).filter((name) => name.startsWith('files/'))).toEqual([`files/${myLogo}`]);

    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'export'));
    expect(entry).toMatchObject({
      companyId: mine.id,
      entity: 'companies',
      actorName: 'Ada Admin',
      summary: 'download: — → all data',
    });
  });

  it('leaves out credentials and link tokens by column name', () => {
    for (const name of [
      'password_hash',
      'token_hash',
      'access_token',
      'refresh_token',
      'oauth_state_hash',
      'webhook_secret_hash',
      'unsubscribe_token',
      'waiver_token',
      'api_secret',
    ]) {
      expect(isSecretColumn(name), name).toBe(true);
    }
    for (const name of [
      'email',
      'full_name',
      'access_token_expires_at',
      'logo_file',
      'authhash',
      'amount_cents',
    ]) {
      expect(isSecretColumn(name), name).toBe(false);
    }
  });
});
