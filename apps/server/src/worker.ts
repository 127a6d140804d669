import { loadConfig } from './config.ts';
import { connectDatabase } from './db/client.ts';
import { registerFeatureJobs } from './jobs.registry.ts';
import { LocalDiskStorage } from './platform/files.ts';
import { startJobs } from './platform/jobs.ts';

/**
 * `npm run worker`: the background jobs (mail delivery, hold and invitation expiry) as their own
 * process, for when API processes are scaled out and started with their own workers turned off.
 * It needs DATABASE_URL: the embedded PostgreSQL belongs to the one `npm start` process.
 */
async function main() {
  const config = loadConfig();
  if (!config.DATABASE_URL)
    throw new Error('npm run worker needs DATABASE_URL (the server that `npm start` uses).');
  const database = connectDatabase(config.DATABASE_URL, { max: 5, lockTimeoutMs: config.LOCK_TIMEOUT_MS });
  const jobs = await startJobs({ config, database, databaseUrl: config.DATABASE_URL });
  const deps = { config, database, jobs, files: new LocalDiskStorage(config.filesDir) };
  await registerFeatureJobs(deps);
  console.log('[tumble] worker running');
  const stop = async () => {
    await jobs.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

void main();
