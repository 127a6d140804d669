import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';

export type Db = NodePgDatabase;

export interface Database {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

// DATE columns stay 'YYYY-MM-DD' strings: a calendar date has no time zone (ARCHITECTURE.md, "Money, time, text").
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// BIGINT counts (count(*)) fit comfortably in a JS number for our sizes.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function connectDatabase(
  url: string,
  options: { max?: number; lockTimeoutMs?: number } = {},
): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    // A request never waits on a row lock without end: past this it fails with 55P03 (answered as 503).
    lock_timeout: options.lockTimeoutMs ?? 5_000,
    // Fail fast while PostgreSQL is unreachable instead of queueing requests forever.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  const db = drizzle({ client: pool, casing: 'snake_case' });
  return {
    pool,
    db,
    close: () => pool.end(),
  };
}

/** Creates `name` on the server of `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
