import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { connectDatabase } from '../db/client.ts';
import { migrationsFolder, runMigrations } from '../db/migrate.ts';
import { isFileKey, LocalDiskStorage } from '../platform/files.ts';
import {
  BackupError,
  type BackupHeader,
  type EndEntry,
  FORMAT,
  FORMAT_VERSION,
  jsonLine,
  readBackup,
  type TableEntry,
} from './format.ts';
import { listTables, qualified, quote, type TableInfo } from './schema.ts';

/**
 * Logical backup and restore of the whole installation: every table of `public` and every stored
 * file, in one gzip file of JSON lines (format.ts). Written in Node with `pg` rather than pg_dump:
 * see docs/decisions/009-logical-backup.md.
 */

export interface BackupOptions {
  databaseUrl: string;
  /** The file store's folder (config.filesDir, DATA_DIR/files). */
  filesDir: string;
  output: string;
}

export interface BackupSummary {
  output: string;
  migration: string | null;
  tables: number;
  rows: number;
  files: number;
  /** Files under filesDir whose names no FileStorage key can have (left out). */
  skippedFiles: string[];
}

export interface RestoreOptions {
  databaseUrl: string;
  filesDir: string;
  input: string;
  /** Replace whatever the target database holds. Without it a database with data is refused. */
  force?: boolean;
}

export interface RestoreSummary {
  migration: string | null;
  tables: number;
  rows: number;
  files: number;
  /** Tables of the backup this code's schema no longer has (dropped by a later migration). */
  skippedTables: string[];
}

const FETCH_ROWS = 1000;

interface JournalEntry {
  tag: string;
  when: number;
}

/** drizzle-kit's journal: the migrations this code knows, oldest first. */
async function readJournal(): Promise<JournalEntry[]> {
  const text = await readFile(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8');
  return (JSON.parse(text) as { entries: JournalEntry[] }).entries;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

// ─── backup ──────────────────────────────────────────────────────────────────────────────────────

/** The latest migration applied, from drizzle's bookkeeping (schema `drizzle`, runMigrations' default). */
async function appliedMigration(client: pg.Client): Promise<BackupHeader['migration']> {
  const present = await client.query(`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`);
  if (!present.rows[0].ok) {
    throw new BackupError('the database has no migrations applied: not a Tumble database');
  }
  const latest = await client.query(
    'select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
  );
  const when = Number(latest.rows[0]?.created_at ?? 0);
  const tag = (await readJournal()).find((e) => e.when === when)?.tag ?? null;
  return { tag, when };
}

/**
 * A row as one line. JSON escapes newlines inside strings, so a raw newline can only be
 * insignificant whitespace kept verbatim by a `json` (not jsonb) column.
 */
const oneLine = (json: string) => (json.includes('\n') ? json.replaceAll('\n', ' ') : json);

/** A table line, then its rows in primary-key order through a cursor: memory stays flat. */
async function* tableLines(client: pg.Client, table: TableInfo, counts: EndEntry): AsyncGenerator<string> {
  const name = qualified(table.name);
  const total = Number((await client.query(`select count(*) as n from ${name}`)).rows[0].n);
  counts.tables++;
  counts.rows += total;
  const entry: TableEntry = { kind: 'table', name: table.name, columns: table.columns, rows: total };
  yield jsonLine(entry);
  const order = table.primaryKey.map((c) => `t.${quote(c)}`).join(', ');
  await client.query(
    `declare backup_rows no scroll cursor for select row_to_json(t.*)::text as row from ${name} t${order ? ` order by ${order}` : ''}`,
  );
  let fetched = 0;
  for (;;) {
    const { rows } = await client.query<{ row: string }>(`fetch ${FETCH_ROWS} from backup_rows`);
    if (rows.length === 0) break;
    fetched += rows.length;
    yield rows.map((r) => `${oneLine(r.row)}\n`).join('');
  }
  await client.query('close backup_rows');
  // One snapshot serves both queries, so this only fails if that promise is ever broken.
  if (fetched !== total) throw new Error(`${table.name}: counted ${total} rows, read ${fetched}`);
}

/** Relative paths of every file under `root`, sorted; none when the store was never written to. */
async function listFiles(root: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, prefix), { withFileTypes: true }).catch((error) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  const nested = await Promise.all(
    entries.map((e) => {
      const relative = prefix ? `${prefix}/${e.name}` : e.name;
      return e.isDirectory() ? listFiles(root, relative) : Promise.resolve(e.isFile() ? [relative] : []);
    }),
  );
  return nested.flat().sort();
}

/** Every stored file as a line; names that are not storage keys are reported and left out. */
async function* fileLines(filesDir: string, counts: EndEntry, skipped: string[]): AsyncGenerator<string> {
  const storage = new LocalDiskStorage(filesDir);
  for (const key of await listFiles(filesDir)) {
    const data = isFileKey(key) ? await storage.get(key) : null;
    if (!data) {
      skipped.push(key);
      continue;
    }
    counts.files++;
    yield jsonLine({ kind: 'file', key, data: data.toString('base64') });
  }
}

async function* backupLines(
  client: pg.Client,
  options: BackupOptions,
  header: BackupHeader,
  counts: EndEntry,
  skipped: string[],
): AsyncGenerator<string> {
  yield jsonLine(header);
  for (const table of await listTables(client)) yield* tableLines(client, table, counts);
  // Files are read after the database snapshot: a logo replaced meanwhile may be missing (the
  // README says to stop the app for a backup that must be exact).
  yield* fileLines(options.filesDir, counts, skipped);
  yield jsonLine(counts);
}

/**
 * Writes a backup of `databaseUrl` and `filesDir` to `output`. All tables are read in one
 * REPEATABLE READ snapshot, so the backup is consistent while the app keeps running. The file
 * appears under its name only once complete.
 */
export async function backupDatabase(options: BackupOptions): Promise<BackupSummary> {
  const partial = `${options.output}.partial`;
  await mkdir(path.dirname(path.resolve(options.output)), { recursive: true });
  const client = await connect(options.databaseUrl);
  try {
    await client.query('begin transaction isolation level repeatable read, read only');
    const migration = await appliedMigration(client);
    const header: BackupHeader = {
      kind: 'header',
      format: FORMAT,
      version: FORMAT_VERSION,
      migration,
      createdAt: new Date().toISOString(),
    };
    const counts: EndEntry = { kind: 'end', tables: 0, rows: 0, files: 0 };
    const skippedFiles: string[] = [];
    const lines = backupLines(client, options, header, counts, skippedFiles);
    await pipeline(Readable.from(lines), createGzip(), createWriteStream(partial));
    await client.query('commit');
    await rename(partial, options.output);
    const { tables, rows, files } = counts;
    return { output: options.output, migration: migration.tag, tables, rows, files, skippedFiles };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await client.end();
  }
}

// ─── restore ─────────────────────────────────────────────────────────────────────────────────────

interface BackupContents {
  header: BackupHeader;
  tables: TableEntry[];
  end: EndEntry;
}

/** First pass: reads the whole file and checks its structure before anything is touched. */
async function inspectBackup(file: string): Promise<BackupContents> {
  let header: BackupHeader | undefined;
  let end: EndEntry | undefined;
  const tables: TableEntry[] = [];
  for await (const entry of readBackup(file)) {
    if (entry.kind === 'header') header = entry;
    else if (entry.kind === 'table') tables.push(entry);
    else if (entry.kind === 'end') end = entry;
  }
  // readBackup guarantees both; the check keeps TypeScript honest.
  if (!header || !end) throw new BackupError(`${file}: no header or no end line`);
  return { header, tables, end };
}

/** A backup from a schema this code does not have could not be loaded faithfully. */
async function checkMigration(header: BackupHeader): Promise<void> {
  const journal = await readJournal();
  const latest = journal.at(-1)!;
  const name = header.migration.tag ?? `made at ${header.migration.when}`;
  if (header.migration.when > latest.when) {
    throw new BackupError(
      `the backup comes from a newer Tumble (migration ${name}); this code knows migrations up to ${latest.tag}. Update the code, then restore.`,
    );
  }
  if (!journal.some((e) => e.when === header.migration.when)) {
    throw new BackupError(`the backup's migration ${name} is not one of this code's migrations`);
  }
}

/** Tables of `tables` holding at least one row. */
async function tablesWithRows(client: pg.Client, tables: TableInfo[]): Promise<string[]> {
  if (tables.length === 0) return [];
  const probes = tables.map(
    (t) => `select ${client.escapeLiteral(t.name)} as name where exists (select 1 from ${qualified(t.name)})`,
  );
  return (await client.query<{ name: string }>(probes.join(' union all '))).rows.map((r) => r.name);
}

async function refuseUnlessEmpty(client: pg.Client, tables: TableInfo[], force: boolean): Promise<void> {
  if (force) return;
  const filled = await tablesWithRows(client, tables);
  if (filled.length > 0) {
    throw new BackupError(
      `the target database already holds data (${filled.slice(0, 5).join(', ')}${filled.length > 5 ? ', …' : ''}). Restore into an empty database, or pass --force to replace everything in it.`,
    );
  }
}

/**
 * Our own triggers are switched off for the restore and back on before commit. They are there for
 * the application: `signed_waivers` refuses DELETE and TRUNCATE (migration 0008) so evidence is
 * never lost, which would also stop `--force` from emptying the table before it is refilled with
 * the backup's signed waivers; and rows come back exactly as they were written, so nothing must
 * react to them a second time. ALTER TABLE is transactional and holds an ACCESS EXCLUSIVE lock
 * until commit: no other session ever sees or writes a table while its triggers are off, and a
 * failed restore rolls the switch back with everything else.
 */
async function setUserTriggers(client: pg.Client, tables: TableInfo[], enabled: boolean): Promise<void> {
  for (const table of tables.filter((t) => t.hasUserTriggers)) {
    await client.query(`alter table ${qualified(table.name)} ${enabled ? 'enable' : 'disable'} trigger user`);
  }
}

interface Staged {
  staging: string;
  columns: string[];
  loaded: number;
}

/**
 * Second pass: every table's rows go into a temporary table of raw JSON (dropped at commit), so
 * they can then be inserted in this database's dependency order whatever order the file has.
 */
async function stageRows(client: pg.Client, file: string): Promise<Map<string, Staged>> {
  const staged = new Map<string, Staged>();
  for await (const entry of readBackup(file)) {
    if (entry.kind === 'table') {
      const staging = `restore_${staged.size}`;
      await client.query(
        `create temporary table ${staging} (n bigint not null, v json not null) on commit drop`,
      );
      staged.set(entry.name, { staging, columns: entry.columns, loaded: 0 });
    } else if (entry.kind === 'rows') {
      const target = staged.get(entry.table)!;
      await client.query(
        `insert into ${target.staging} (n, v)
         select $2::bigint + e.n, e.v from json_array_elements($1::json) with ordinality as e(v, n)`,
        [`[${entry.rows.join(',')}]`, target.loaded],
      );
      target.loaded += entry.rows.length;
    } else if (entry.kind === 'file') {
      break; // files come after all tables
    }
  }
  return staged;
}

/**
 * json_populate_record turns each JSON row back into the table's row type: bytea from its `\x…`
 * hex, jsonb, arrays, dates and timestamps. Only columns both in the backup and insertable here
 * are named, so a column added by a later migration takes its default. OVERRIDING SYSTEM VALUE
 * keeps the backup's ids for identity columns too.
 */
async function insertStaged(client: pg.Client, table: TableInfo, staged: Staged | undefined): Promise<void> {
  const columns = table.insertable.filter((c) => staged?.columns.includes(c));
  if (!staged || staged.loaded === 0 || columns.length === 0) return;
  await client.query(
    `insert into ${qualified(table.name)} (${columns.map(quote).join(', ')}) overriding system value
     select ${columns.map((c) => `r.${quote(c)}`).join(', ')}
     from ${staged.staging} s cross join lateral json_populate_record(null::${qualified(table.name)}, s.v) r
     order by s.n`,
  );
}

/** Sequences continue after the restored ids, so the next insert never collides. */
async function resetSequences(client: pg.Client, tables: TableInfo[]): Promise<void> {
  for (const table of tables) {
    for (const { column, sequence } of table.sequences) {
      await client.query(
        `select setval($1, coalesce((select max(${quote(column)}) from ${qualified(table.name)}), 0) + 1, false)`,
        [sequence],
      );
    }
  }
}

/** The database part, all or nothing in one transaction. Returns the backup's tables left out. */
async function loadTables(client: pg.Client, options: RestoreOptions): Promise<string[]> {
  await client.query('begin');
  try {
    const tables = await listTables(client);
    // Nobody else writes (or sees a half-restored table) between the emptiness check and commit.
    await client.query(
      `lock table ${tables.map((t) => qualified(t.name)).join(', ')} in access exclusive mode`,
    );
    await refuseUnlessEmpty(client, tables, options.force ?? false);
    await setUserTriggers(client, tables, false);
    if (options.force) {
      await client.query(
        `truncate table ${tables.map((t) => qualified(t.name)).join(', ')} restart identity`,
      );
    }
    const staged = await stageRows(client, options.input);
    for (const table of tables) await insertStaged(client, table, staged.get(table.name));
    await resetSequences(client, tables);
    await setUserTriggers(client, tables, true);
    await client.query('commit');
    const here = new Set(tables.map((t) => t.name));
    return [...staged.keys()].filter((name) => !here.has(name));
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  }
}

/** Third pass, after commit: the file store. Keys are random, so these never overwrite other files. */
async function restoreFiles(file: string, filesDir: string): Promise<void> {
  const storage = new LocalDiskStorage(filesDir);
  for await (const entry of readBackup(file)) {
    if (entry.kind === 'file') await storage.put(entry.key, entry.data);
  }
}

async function migrate(databaseUrl: string): Promise<void> {
  const database = connectDatabase(databaseUrl, { max: 1 });
  try {
    await runMigrations(database.db);
  } finally {
    await database.close();
  }
}

/**
 * Restores a backup into `databaseUrl` and `filesDir`. The whole file is checked first; a database
 * with data is refused without `force` before anything changes; then the migrations run (an empty
 * database gets the schema), and the rows go in within one transaction: all of them or none. The
 * files are written after the commit.
 */
export async function restoreDatabase(options: RestoreOptions): Promise<RestoreSummary> {
  const { header, end } = await inspectBackup(options.input);
  await checkMigration(header);
  const client = await connect(options.databaseUrl);
  try {
    await refuseUnlessEmpty(client, await listTables(client), options.force ?? false);
    await migrate(options.databaseUrl);
    const skippedTables = await loadTables(client, options);
    await restoreFiles(options.input, options.filesDir);
    return {
      migration: header.migration.tag,
      tables: end.tables,
      rows: end.rows,
      files: end.files,
      skippedTables,
    };
  } finally {
    await client.end();
  }
}
