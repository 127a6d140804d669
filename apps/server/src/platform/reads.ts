import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';

/**
 * Independent reads: at once on the pool, where each query takes its own connection, but one after
 * another inside a transaction, whose one connection must not be handed a second query while the
 * first runs (node-postgres queues it with "Calling client.query() when the client is already
 * executing a query", deprecated and gone in pg@9; issue 21 point 29). On one connection they would
 * run one at a time anyway, so nothing is lost.
 */
export async function readTogether<T extends readonly unknown[]>(
  db: Db,
  reads: readonly [...{ [K in keyof T]: () => Promise<T[K]> }],
): Promise<T> {
  if (!(db instanceof PgTransaction)) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}
