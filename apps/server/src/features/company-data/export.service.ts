import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { Zip, ZipDeflate } from 'fflate';
import type pg from 'pg';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';

/**
 * "Download all" (issue 18, a company's data): one CSV per table that has a `company_id` column,
 * found in the database catalogue so a table added later is exported too, holding that company's
 * rows only; then every uploaded file a row of the company names, under files/.
 *
 * The zip is streamed: rows come from a server-side cursor a batch at a time and each batch waits
 * until the browser has taken the previous one, so a big company never sits in memory. Synchronous
 * rather than a background job: the work is one pass over the company's rows, which takes seconds
 * for the companies we serve, and a stream needs no storage for a finished archive nor a page to
 * poll; the download shows its own progress in the browser.
 */

/** Rows fetched from the cursor at a time. */
const BATCH = 1000;

/** Columns never exported, by name: credentials and link tokens, even hashed or sealed. */
const SECRET_COLUMNS = new Set([
  'password_hash',
  'token_hash',
  'access_token',
  'refresh_token',
  'oauth_state_hash',
  'webhook_secret_hash',
  'unsubscribe_token',
  'waiver_token',
  'hold_token',
]);
/** And any column named like a secret, so a credential column added later stays out too. */
const SECRET_PATTERN = /(^|_)(password|secret|token)(_|$)|_hash$/;

/**
 * Sent mail carries live links (activation, password reset, waitlist offers, unsubscribe) whose
 * token is the credential: in these tables a long token after `/`, `=` or `?` is removed.
 */
const LINK_TABLES = new Set(['mail_outbox']);
const LINK_TOKEN = /([/=?])[A-Za-z0-9_-]{20,}/g;

export function withoutLinkTokens(text: string): string {
  return text.replace(LINK_TOKEN, '$1[removed]');
}

export function isSecretColumn(name: string): boolean {
  // access_token_expires_at says when, not what: it is not a secret.
  if (name.endsWith('_expires_at')) return false;
  return SECRET_COLUMNS.has(name) || SECRET_PATTERN.test(name);
}

interface ExportTable {
  name: string;
  columns: string[];
  hasId: boolean;
}

/** Every base table of our schema with a company_id column, and its columns in order. */
async function companyTables(client: pg.PoolClient): Promise<ExportTable[]> {
  const { rows } = await client.query<{ table_name: string; columns: string[] }>(
    `select c.table_name, array_agg(c.column_name::text order by c.ordinal_position) as columns
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      group by c.table_name
     having bool_or(c.column_name = 'company_id') or c.table_name = 'companies'
      order by c.table_name`,
  );
  return rows.map((row) => ({
    name: row.table_name,
    columns: row.columns,
    hasId: row.columns.includes('id'),
  }));
}

/** A cell as CSV text: dates as ISO 8601, JSON and arrays as JSON, binary as base64. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Writes a chunk and, when the response's buffer is full, waits until the browser has read it. */
async function write(out: PassThrough, chunk: Uint8Array) {
  if (out.destroyed) throw new Error('download closed');
  if (!out.write(chunk)) await Promise.race([once(out, 'drain'), once(out, 'close')]);
}

/**
 * The archive as a stream to send, written as it is read. The export is audited before the
 * first byte. Secrets are left out by column name (isSecretColumn).
 */
export async function exportCompany(
  deps: AppDeps,
  auth: AuthContext,
  onError: (error: unknown) => void,
): Promise<PassThrough> {
  const companyId = auth.tenant.companyId;
  await recordAudit(deps.database.db, auth, {
    action: 'export',
    entity: 'companies',
    entityId: companyId,
    // The audit log's summary reads "download: — → all data".
    after: { download: 'all data' },
  });
  const out = new PassThrough();
  let pending: Promise<void> = Promise.resolve();
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      out.destroy(error);
      return;
    }
    // fflate hands chunks synchronously; keep their order and let the writer wait on them.
    pending = pending.then(() => write(out, chunk));
    if (final) pending = pending.then(() => void out.end());
  });
  void produce(deps, companyId, zip, () => pending).catch((error) => {
    onError(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}

async function produce(deps: AppDeps, companyId: number, zip: Zip, flushed: () => Promise<void>) {
  const fileKey = new RegExp(`\\b(?:public|private)/${companyId}/[A-Za-z0-9_-]{16,64}\\.[a-z0-9]{1,8}`, 'g');
  const fileKeys = new Set<string>();
  const client = await deps.database.pool.connect();
  try {
    // One snapshot for every table: the CSVs agree with each other.
    await client.query('begin isolation level repeatable read read only');
    for (const table of await companyTables(client)) {
      const columns = table.columns.filter((name) => !isSecretColumn(name));
      const file = new ZipDeflate(`${table.name}.csv`, { level: 6 });
      zip.add(file);
      file.push(new TextEncoder().encode(stringify([columns])));
      const scope = table.name === 'companies' ? 'id' : 'company_id';
      // companyId is a checked integer (Tenant); names come from the catalogue and are quoted.
      await client.query(
        `declare company_rows no scroll cursor for select ${columns.map((c) => client.escapeIdentifier(c)).join(', ')}
           from ${client.escapeIdentifier(table.name)} where ${scope} = ${Number(companyId)}${table.hasId ? ' order by id' : ''}`,
      );
      for (;;) {
        const batch = await client.query({ text: `fetch ${BATCH} from company_rows`, rowMode: 'array' });
        const lines = (batch.rows as unknown[][]).map((row) =>
          row.map((value) => {
            const text = LINK_TABLES.has(table.name) ? withoutLinkTokens(cell(value)) : cell(value);
            for (const key of text.match(fileKey) ?? []) fileKeys.add(key);
            return text;
          }),
        );
        const last = batch.rows.length < BATCH;
        file.push(new TextEncoder().encode(lines.length ? stringify(lines) : ''), last);
        await flushed();
        if (last) break;
      }
      await client.query('close company_rows');
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  for (const key of [...fileKeys].sort()) {
    const data = await deps.files.get(key);
    if (!data) continue;
    // Images and PDFs are compressed already.
    const file = new ZipDeflate(`files/${key}`, { level: 0 });
    zip.add(file);
    file.push(data, true);
    await flushed();
  }
  zip.end();
  await flushed();
}
