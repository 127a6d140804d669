import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { FileStorage } from './files.ts';
import type { Jobs } from './jobs.ts';

/**
 * What every route, service and job is given: configuration, the database, the job queue and the
 * file store. Its own module so that features depend on it, not on app.ts (which imports every
 * feature's routes, and would tie them all into one import circle).
 */
export interface AppDeps {
  config: Config;
  database: Database;
  jobs: Jobs;
  files: FileStorage;
}
