import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import PgBoss from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { connectDatabase, ensureDatabase } from '../db/client.ts';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { runMigrations } from '../db/migrate.ts';

export const TEMPLATE_DATABASE = 'tumble_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL of the test PostgreSQL server with the right to create databases. */
    adminDatabaseUrl: string;
  }
}

/**
 * Integration tests: one real PostgreSQL per run (embedded, or TEST_DATABASE_URL), one migrated
 * template database, cloned per test file by `testing/harness.ts`.
 */
export default async function setup(project: TestProject) {
  let stopServer = async () => {};
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tumble-test-'));
    const server = await startEmbeddedPostgres(dataDir);
    adminUrl = server.url;
    stopServer = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }

  const admin = connectDatabase(adminUrl, { max: 1 });
  await admin.pool.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
  await admin.close();
  const templateUrl = await ensureDatabase(adminUrl, TEMPLATE_DATABASE);
  const template = connectDatabase(templateUrl, { max: 1 });
  await runMigrations(template.db);
  await template.close();
  // The job queue's own schema belongs in the template too, so each test's pg-boss starts at once.
  const boss = new PgBoss({ connectionString: templateUrl, max: 1, supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, wait: true });

  project.provide('adminDatabaseUrl', adminUrl);
  return stopServer;
}
