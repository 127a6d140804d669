import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createTestDatabase } from '../testing/harness.ts';
import { connectDatabase } from './client.ts';
import { migrationsFolder, runMigrations } from './migrate.ts';

it('two processes starting at once apply each migration once (the second waits, then has nothing to do)', async () => {
  const testDb = await createTestDatabase({ empty: true });
  // Two pools stand for two app containers starting on the same empty database.
  const first = connectDatabase(testDb.url, { max: 2 });
  const second = connectDatabase(testDb.url, { max: 2 });
  try {
    const results = await Promise.allSettled([runMigrations(first.db), runMigrations(second.db)]);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status))).toEqual([
      'fulfilled',
      'fulfilled',
    ]);
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'));
    const applied = await first.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied.rows[0]).toEqual({ n: journal.entries.length });
  } finally {
    await first.close();
    await second.close();
    await testDb.drop();
  }
});
