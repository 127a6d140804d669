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
 * A database made anew with every migration and the job queue's own schema, for tests to clone
 * (`create database … template …`), so each clone's app and pg-boss start at once.
 */
export async function makeTemplateDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = connectDatabase(adminUrl, { max: 1 });
  await admin.pool.query(`drop database if exists ${name} with (force)`);
  await admin.close();
  const templateUrl = await ensureDatabase(adminUrl, name);
  const template = connectDatabase(templateUrl, { max: 1 });
  await runMigrations(template.db);
  await template.close();
  const boss = new PgBoss({ connectionString: templateUrl, max: 1, supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, wait: true });
  return templateUrl;
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

  await makeTemplateDatabase(adminUrl, TEMPLATE_DATABASE);
  project.provide('adminDatabaseUrl', adminUrl);
  return stopServer;
}
