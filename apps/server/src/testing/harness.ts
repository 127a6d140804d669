import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { connectDatabase, type Database } from '../db/client.ts';
import type { AppDeps } from '../platform/deps.ts';
import { LocalDiskStorage } from '../platform/files.ts';
import { type Jobs, startJobs } from '../platform/jobs.ts';
import { publicCacheOf } from '../platform/public-cache.ts';

const TEMPLATE_DATABASE = 'tumble_template';

export interface TestContext {
  app: FastifyInstance;
  deps: AppDeps;
  database: Database;
  config: Config;
  databaseUrl: string;
  /**
   * Resolves once the app's public read cache has heard every change committed so far. A request
   * that writes waits for this before it answers; a test that writes straight to a cached table
   * (a company's modules, its status) and then reads through the app must wait for it too.
   */
  syncCache(): Promise<void>;
  close(): Promise<void>;
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the migrated template: each test file gets its own. */
export async function createTestDatabase(
  options: { empty?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tumble_test_${randomBytes(6).toString('hex')}`;
  // `empty`: no tables at all, for tests that run the migrations themselves.
  await adminQuery(`create database ${name} template ${options.empty ? 'template0' : TEMPLATE_DATABASE}`);
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

/**
 * The whole application on its own database, built as in production (real PostgreSQL, real
 * pg-boss) but not listening: send requests with `app.inject`.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { workers?: boolean } = {},
): Promise<TestContext> {
  const testDb = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tumble-files-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    PUBLIC_URL: 'http://tumble.test',
    RATE_LIMIT_PER_MINUTE: '100000',
    WEB_DIST: '/nonexistent',
    ...env,
  });
  const database = connectDatabase(testDb.url, { max: 10, lockTimeoutMs: config.LOCK_TIMEOUT_MS });
  const jobs: Jobs = await startJobs({
    config,
    database,
    databaseUrl: testDb.url,
    workers: options.workers ?? false,
  });
  const deps: AppDeps = { config, database, jobs, files: new LocalDiskStorage(config.filesDir) };
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    database,
    config,
    databaseUrl: testDb.url,
    async syncCache() {
      await publicCacheOf(database.db)?.sync();
    },
    async close() {
      await app.close();
      await jobs.stop();
      await database.close();
      await testDb.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
