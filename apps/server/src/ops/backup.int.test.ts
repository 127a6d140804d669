import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { users } from '../features/accounts/accounts.tables.ts';
import { bookingChildren, bookings } from '../features/bookings/bookings.tables.ts';
import { children } from '../features/students/students.tables.ts';
import { DEMO, seedDemo } from '../seed/demo.ts';
import { sessionFor } from '../testing/factories.ts';
import { createTestApp, createTestDatabase, type TestContext } from '../testing/harness.ts';
import { SIGNATURE } from '../testing/waiver-fixtures.ts';
import { backupDatabase, restoreDatabase } from './backup.ts';

// A 1×1 PNG, uploaded as the company logo.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

interface Target {
  url: string;
  filesDir: string;
  drop(): Promise<void>;
}

async function query<T = Record<string, unknown>>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A database made with plain CREATE DATABASE: no schema at all, unlike the harness's migrated clone. */
async function bareDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = inject('adminDatabaseUrl');
  const name = `tumble_bare_${randomBytes(6).toString('hex')}`;
  await query(admin, `create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => void (await query(admin, `drop database ${name} with (force)`)),
  };
}

async function target(kind: 'bare' | 'migrated'): Promise<Target> {
  const database = kind === 'bare' ? await bareDatabase() : await createTestDatabase();
  const filesDir = await mkdtemp(path.join(os.tmpdir(), 'tumble-restore-'));
  return {
    url: database.url,
    filesDir,
    async drop() {
      await database.drop();
      await rm(filesDir, { recursive: true, force: true });
    },
  };
}

/** Every table of `public`: row count and an md5 of all rows as text, in a fixed order. */
async function fingerprint(url: string): Promise<Record<string, { rows: number; md5: string }>> {
  const tables = await query<{ name: string }>(
    url,
    "select tablename as name from pg_tables where schemaname = 'public' order by 1",
  );
  const result: Record<string, { rows: number; md5: string }> = {};
  for (const { name } of tables) {
    const [row] = await query<{ rows: number; md5: string }>(
      url,
      `select count(*)::int as rows, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as md5
       from public."${name}" t`,
    );
    result[name] = row!;
  }
  return result;
}

/** Every file under `dir` by relative path. */
async function storedFiles(dir: string): Promise<Record<string, Buffer>> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  const files: Record<string, Buffer> = {};
  for (const name of names.sort()) {
    const data = await readFile(path.join(dir, name)).catch(() => null); // directories
    if (data) files[name.split(path.sep).join('/')] = data;
  }
  return files;
}

/** Each serial column's sequence hands out max(id) + 1 next. */
async function expectSequencesContinue(url: string) {
  const serials = await query<{ name: string; column: string; sequence: string }>(
    url,
    `select c.relname as name, a.attname as column, pg_get_serial_sequence(format('public.%I', c.relname), a.attname) as sequence
     from pg_attribute a join pg_class c on c.oid = a.attrelid
     where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`,
  );
  const checked = serials.filter((s) => s.sequence);
  expect(checked.length).toBeGreaterThan(20);
  for (const { name, column, sequence } of checked) {
    const [row] = await query<{ next: number; max: number }>(
      url,
      `select nextval('${sequence}')::int as next, (select coalesce(max("${column}"), 0)::int from public."${name}") as max`,
    );
    expect(row!.next, `${name}.${column}`).toBe(row!.max + 1);
  }
}

/** Rewrites a backup's lines (decompressed), for corrupt or foreign backups. */
async function rewrite(input: string, output: string, change: (lines: string[]) => string[]) {
  const lines = gunzipSync(await readFile(input))
    .toString('utf8')
    .split('\n');
  await writeFile(output, gzipSync(change(lines).join('\n')));
}

describe('backup and restore', () => {
  let source: TestContext;
  let work: string;
  let backupFile: string;
  let expected: Awaited<ReturnType<typeof fingerprint>>;
  let expectedFiles: Record<string, Buffer>;

  async function signWaiver() {
    const db = source.database.db;
    const [booking] = await db.select().from(bookings).orderBy(asc(bookings.id)).limit(1);
    const [{ child }] = (await db
      .select({ child: children })
      .from(bookingChildren)
      .innerJoin(children, eq(children.id, bookingChildren.childId))
      .where(eq(bookingChildren.bookingId, booking!.id))
      .limit(1)) as [{ child: typeof children.$inferSelect }];
    const response = await source.app.inject({
      method: 'POST',
      url: `/api/v1/event-booking/waiver?authhash=${DEMO.authhash}`,
      payload: {
        id: booking!.reference,
        child_id: child.id,
        first_name: child.firstName,
        last_name: child.lastName,
        dob: child.dob,
        medical: 'Asthma, has a puffer',
        allergies: 'Peanuts',
        emergency_contact: 'Sam Family 0400 000 000',
        photo_consent: true,
        signer_name: 'Jo Family',
        signature: SIGNATURE,
        agree: true,
      },
    });
    expect(response.json()).toMatchObject({ valid: true });
  }

  async function uploadLogo() {
    const [admin] = await source.database.db.select().from(users).where(eq(users.email, DEMO.admin.email));
    const boundary = '----backup-test';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`;
    const response = await source.app.inject({
      method: 'POST',
      url: '/api/v1/admin/my-company/logo',
      headers: {
        ...(await sessionFor(source.database.db, admin!)).headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat([Buffer.from(head), PNG, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    });
    expect(response.statusCode).toBe(200);
  }

  beforeAll(async () => {
    source = await createTestApp();
    work = await mkdtemp(path.join(os.tmpdir(), 'tumble-backup-'));
    await seedDemo(source.database.db, source.config);
    await signWaiver();
    await uploadLogo();
    backupFile = path.join(work, 'backup.jsonl.gz');
    const summary = await backupDatabase({
      databaseUrl: source.databaseUrl,
      filesDir: source.config.filesDir,
      output: backupFile,
    });
    expected = await fingerprint(source.databaseUrl);
    expectedFiles = await storedFiles(source.config.filesDir);
    expect(summary).toMatchObject({ files: 1, skippedFiles: [] });
    expect(summary.rows).toBe(Object.values(expected).reduce((n, t) => n + t.rows, 0));
  });
  afterAll(async () => {
    await source.close();
    await rm(work, { recursive: true, force: true });
  });

  it('backs up a realistic database: demo data, a signed waiver with its signature, a logo', () => {
    expect(expected.signed_waivers!.rows).toBe(1);
    expect(expected.bookings!.rows).toBeGreaterThan(0);
    expect(Object.keys(expectedFiles)).toEqual([expect.stringMatching(/^public\/1\/.+\.png$/)]);
    expect(expectedFiles[Object.keys(expectedFiles)[0]!]!.equals(PNG)).toBe(true);
  });

  it.each(['bare', 'migrated'] as const)(
    'restores into a %s empty database: every table and every file as they were',
    async (kind) => {
      const t = await target(kind);
      try {
        const summary = await restoreDatabase({
          databaseUrl: t.url,
          filesDir: t.filesDir,
          input: backupFile,
        });
        expect(summary).toMatchObject({ files: 1, skippedTables: [] });
        expect(await fingerprint(t.url)).toEqual(expected);
        expect(await storedFiles(t.filesDir)).toEqual(expectedFiles);
        await expectSequencesContinue(t.url);
        // The evidence trigger switched off for the load is back on.
        await expect(query(t.url, 'delete from signed_waivers')).rejects.toThrow(
          /cannot be changed or deleted/,
        );
      } finally {
        await t.drop();
      }
    },
  );

  describe('into a database that holds data', () => {
    let t: Target;
    let before: Awaited<ReturnType<typeof fingerprint>>;

    beforeAll(async () => {
      t = await target('migrated');
      await restoreDatabase({ databaseUrl: t.url, filesDir: t.filesDir, input: backupFile });
      await query(t.url, "update companies set name = 'Changed after the backup'");
      await query(
        t.url,
        "insert into companies (name, authhash) values ('Added after the backup', 'added-later')",
      );
      before = await fingerprint(t.url);
    });
    afterAll(() => t.drop());

    it('refuses without --force and changes nothing', async () => {
      await expect(
        restoreDatabase({ databaseUrl: t.url, filesDir: t.filesDir, input: backupFile }),
      ).rejects.toThrow(/already holds data \(.*companies.*\).*--force/);
      expect(await fingerprint(t.url)).toEqual(before);
    });

    it('leaves it unchanged when the backup is cut short, even with --force', async () => {
      const bytes = await readFile(backupFile);
      const cut = path.join(work, 'cut.gz');
      await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      const restore = restoreDatabase({ databaseUrl: t.url, filesDir: t.filesDir, input: cut, force: true });
      await expect(restore).rejects.toThrow(/unexpected end of file/);
      // Cut at a line boundary and compressed again: gzip is whole, the end line is missing.
      const short = path.join(work, 'short.gz');
      await rewrite(backupFile, short, (lines) => lines.slice(0, 20));
      await expect(
        restoreDatabase({ databaseUrl: t.url, filesDir: t.filesDir, input: short, force: true }),
      ).rejects.toThrow(/incomplete/);
      expect(await fingerprint(t.url)).toEqual(before);
    });

    it('rolls everything back when a row fails to go in, even with --force', async () => {
      const bad = path.join(work, 'bad-row.gz');
      await rewrite(backupFile, bad, corruptLastTenantRow);
      await expect(
        restoreDatabase({ databaseUrl: t.url, filesDir: t.filesDir, input: bad, force: true }),
      ).rejects.toThrow(/foreign key/);
      expect(await fingerprint(t.url)).toEqual(before);
      await expect(query(t.url, 'delete from signed_waivers')).rejects.toThrow(
        /cannot be changed or deleted/,
      );
    });

    it('replaces everything with --force', async () => {
      await restoreDatabase({ databaseUrl: t.url, filesDir: t.filesDir, input: backupFile, force: true });
      expect(await fingerprint(t.url)).toEqual(expected);
      await expectSequencesContinue(t.url);
    });
  });

  it('rolls back a bad row into an empty database: no table gets rows, no file is written', async () => {
    const t = await target('migrated');
    try {
      const bad = path.join(work, 'bad-row-empty.gz');
      await rewrite(backupFile, bad, corruptLastTenantRow);
      await expect(restoreDatabase({ databaseUrl: t.url, filesDir: t.filesDir, input: bad })).rejects.toThrow(
        /foreign key/,
      );
      const counts = Object.values(await fingerprint(t.url)).map((f) => f.rows);
      expect(counts.length).toBeGreaterThan(20);
      expect(counts.every((n) => n === 0)).toBe(true);
      expect(await storedFiles(t.filesDir)).toEqual({});
    } finally {
      await t.drop();
    }
  });

  it('refuses a backup from a newer schema before touching anything', async () => {
    const t = await target('bare');
    try {
      const newer = path.join(work, 'newer.gz');
      await rewrite(backupFile, newer, ([header, ...rest]) => [
        JSON.stringify({ ...JSON.parse(header!), migration: { tag: '9999_future', when: Date.now() * 10 } }),
        ...rest,
      ]);
      await expect(
        restoreDatabase({ databaseUrl: t.url, filesDir: t.filesDir, input: newer }),
      ).rejects.toThrow(/newer Tumble \(migration 9999_future\)/);
      // Not even the migrations ran.
      expect(await query(t.url, "select 1 from pg_tables where schemaname = 'public'")).toEqual([]);
    } finally {
      await t.drop();
    }
  });
});

/**
 * Points the first row of the last table (in the backup's dependency order) that has rows at a
 * company that does not exist: it passes every format check and fails only on insert, after all the
 * other tables went in within the same transaction.
 */
function corruptLastTenantRow(lines: string[]): string[] {
  const tableLines = lines
    .map((line, index) => ({ index, entry: line.startsWith('{"kind":"table"') ? JSON.parse(line) : null }))
    .filter((l) => l.entry?.rows > 0 && l.entry.columns.includes('company_id'));
  const last = tableLines.at(-1)!;
  expect(tableLines.length).toBeGreaterThan(10);
  const copy = [...lines];
  copy[last.index + 1] = JSON.stringify({ ...JSON.parse(copy[last.index + 1]!), company_id: 999_999 });
  return copy;
}
