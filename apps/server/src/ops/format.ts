import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { isFileKey } from '../platform/files.ts';

/**
 * A backup is one gzip file of JSON lines (docs/decisions/009-logical-backup.md):
 *
 *   {"kind":"header","format":"tumble-backup","version":1,"migration":{…},"createdAt":…}
 *   {"kind":"table","name":"companies","columns":[…],"rows":2}   then exactly 2 lines, each a row
 *   …                                                             as PostgreSQL's row_to_json wrote it
 *   {"kind":"file","key":"public/1/….png","data":"<base64>"}
 *   {"kind":"end","tables":…,"rows":…,"files":…}
 *
 * Rows stay PostgreSQL's own JSON text from end to end: parsing them in JavaScript would round
 * numbers beyond 2^53 and long numerics.
 */
export const FORMAT = 'tumble-backup';
export const FORMAT_VERSION = 1;

/** A refusal or a broken file: the CLI prints the message alone, without a stack. */
export class BackupError extends Error {}

export interface BackupHeader {
  kind: 'header';
  format: string;
  version: number;
  /** The latest drizzle migration applied to the database backed up (`when` is the journal's). */
  migration: { tag: string | null; when: number };
  createdAt: string;
}
export interface TableEntry {
  kind: 'table';
  name: string;
  columns: string[];
  rows: number;
}
export interface EndEntry {
  kind: 'end';
  tables: number;
  rows: number;
  files: number;
}
export type BackupEntry =
  | BackupHeader
  | TableEntry
  | { kind: 'rows'; table: string; rows: string[] }
  | { kind: 'file'; key: string; data: Buffer }
  | EndEntry;

export const jsonLine = (value: object) => `${JSON.stringify(value)}\n`;

/** Rows are handed on in batches of about this size, so memory stays flat whatever the table. */
const BATCH_ROWS = 1000;
const BATCH_CHARS = 4_000_000;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The lines of a gzip file; a truncated or corrupt file throws (zlib checks length and CRC). */
export async function* readLines(file: string): AsyncGenerator<string> {
  const source = createReadStream(file);
  const gunzip = source.pipe(createGunzip());
  source.on('error', (error) => gunzip.destroy(error));
  const decoder = new StringDecoder('utf8');
  // Parts of the current line: a file's base64 line spans many chunks.
  let parts: string[] = [];
  try {
    for await (const chunk of gunzip) {
      const text = decoder.write(chunk as Buffer);
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        parts.push(text.slice(start, end));
        yield parts.join('');
        parts = [];
        start = end + 1;
      }
      parts.push(text.slice(start));
    }
  } finally {
    // A reader that stops early (restore stops at the files) must not leave the file open.
    source.destroy();
  }
  const last = parts.join('') + decoder.end();
  if (last) yield last;
}

function parseObject(line: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new BackupError(`${what} is not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BackupError(`${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

function checkHeader(entry: Record<string, unknown>): BackupHeader {
  if (entry.kind !== 'header' || entry.format !== FORMAT) throw new BackupError('not a Tumble backup');
  if (entry.version !== FORMAT_VERSION) {
    throw new BackupError(
      `backup format ${String(entry.version)} is not ${FORMAT_VERSION}: made by another Tumble`,
    );
  }
  const migration = entry.migration as BackupHeader['migration'] | undefined;
  if (!migration || !isCount(migration.when)) throw new BackupError('the header names no migration');
  return entry as unknown as BackupHeader;
}

function checkTable(entry: Record<string, unknown>): TableEntry {
  if (typeof entry.name !== 'string' || !isStringArray(entry.columns) || !isCount(entry.rows)) {
    throw new BackupError('a table line needs a name, columns and a row count');
  }
  return entry as unknown as TableEntry;
}

function checkFile(entry: Record<string, unknown>): { kind: 'file'; key: string; data: Buffer } {
  if (typeof entry.key !== 'string' || !isFileKey(entry.key)) {
    throw new BackupError(`bad file key ${JSON.stringify(entry.key)}`);
  }
  if (typeof entry.data !== 'string' || !BASE64.test(entry.data)) {
    throw new BackupError(`file ${entry.key} is not base64`);
  }
  return { kind: 'file', key: entry.key, data: Buffer.from(entry.data, 'base64') };
}

/**
 * Turns lines into entries and checks the whole structure on the way: header first, each table's
 * promised number of rows, files after tables, and an end line whose counts match. A backup cut
 * short anywhere is therefore refused, even one cut at a line boundary and re-compressed.
 */
class BackupParser {
  private stage: 'header' | 'tables' | 'files' | 'done' = 'header';
  private table: TableEntry | null = null;
  private remaining = 0;
  private batch: string[] = [];
  private batchChars = 0;
  private readonly counts = { tables: 0, rows: 0, files: 0 };
  private readonly names = new Set<string>();

  *take(line: string): Generator<BackupEntry> {
    if (this.remaining > 0) {
      yield* this.row(line);
      return;
    }
    if (this.stage === 'done') throw new BackupError('lines after the end line');
    const entry = parseObject(line, 'a line');
    if (this.stage === 'header') {
      this.stage = 'tables';
      yield checkHeader(entry);
    } else if (entry.kind === 'table' && this.stage === 'tables') {
      yield this.startTable(checkTable(entry));
    } else if (entry.kind === 'file') {
      this.stage = 'files';
      this.counts.files++;
      yield checkFile(entry);
    } else if (entry.kind === 'end') {
      yield this.end(entry);
    } else {
      throw new BackupError(`unexpected ${JSON.stringify(entry.kind)} line`);
    }
  }

  finish(): void {
    if (this.stage !== 'done') {
      const where = this.table && this.remaining > 0 ? ` inside table ${this.table.name}` : '';
      throw new BackupError(`the backup is incomplete: it ends${where} before its end line`);
    }
  }

  private startTable(table: TableEntry): TableEntry {
    if (this.names.has(table.name)) throw new BackupError(`table ${table.name} appears twice`);
    this.names.add(table.name);
    this.counts.tables++;
    this.table = table;
    this.remaining = table.rows;
    return table;
  }

  private *row(line: string): Generator<BackupEntry> {
    parseObject(line, `a row of ${this.table!.name}`);
    this.batch.push(line);
    this.batchChars += line.length;
    this.remaining--;
    this.counts.rows++;
    if (this.remaining === 0 || this.batch.length >= BATCH_ROWS || this.batchChars >= BATCH_CHARS) {
      yield { kind: 'rows', table: this.table!.name, rows: this.batch };
      this.batch = [];
      this.batchChars = 0;
    }
  }

  private end(entry: Record<string, unknown>): EndEntry {
    const { tables, rows, files } = this.counts;
    if (entry.tables !== tables || entry.rows !== rows || entry.files !== files) {
      throw new BackupError(
        `the end line promises ${String(entry.tables)} tables, ${String(entry.rows)} rows and ${String(entry.files)} files; the backup holds ${tables}, ${rows} and ${files}`,
      );
    }
    this.stage = 'done';
    return { kind: 'end', tables, rows, files };
  }
}

/** Every entry of a backup, checked as it is read; errors name the file and the line. */
export async function* readBackup(file: string): AsyncGenerator<BackupEntry> {
  const parser = new BackupParser();
  let line = 0;
  try {
    for await (const text of readLines(file)) {
      yield* parser.take(text);
      line++;
    }
    parser.finish();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new BackupError(`${file}: line ${line + 1}: ${message}`, { cause: error });
  }
}
