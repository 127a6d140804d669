// What the benchmark runs against: the web build, an embedded PostgreSQL on a fresh temporary data
// folder, and the server started as `npm start` starts it. Everything started here is stopped by
// `cleanup()`, which run.mjs calls on success, on failure and on Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';

export const root = path.resolve(import.meta.dirname, '../..');
/** Outside apps/web/dist, so a bench run never swaps the build under a test run using it. */
export const webDist = path.join(root, 'node_modules/.cache/tumble-bench/web');

const cleanups = [];
/** Registers work for `cleanup()`; the last registered runs first. */
const onCleanup = (work) => cleanups.unshift(work);

export async function cleanup() {
  while (cleanups.length > 0) {
    const work = cleanups.shift();
    try {
      await work();
    } catch (error) {
      console.error(`[bench] cleanup: ${error.message}`);
    }
  }
}

export function tempDataDir({ keep }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tumble-bench-'));
  onCleanup(() => {
    if (keep) console.log(`[bench] kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** The production build of the SPA, the same `vite build` as `npm run build`, into webDist. */
export function buildWeb() {
  const result = spawnSync(
    'npm',
    ['run', 'build', '-w', '@tumble/web', '--', '--outDir', webDist, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('the web build failed');
}

export function assertBuilt() {
  if (!existsSync(path.join(webDist, 'index.html')))
    throw new Error(`no web build in ${webDist}: run without --no-build once`);
}

const embeddedModule = () => tsImport('../../apps/server/src/db/embedded.ts', import.meta.url);

/** A free TCP port on loopback (the server's own helper). */
export async function freePort() {
  return (await embeddedModule()).freePort();
}

/** The embedded PostgreSQL the server uses (apps/server/src/db/embedded.ts), with the app's database. */
export async function startDatabase(dataDir) {
  const { startEmbeddedPostgres, EMBEDDED_DATABASE } = await embeddedModule();
  const { ensureDatabase } = await tsImport('../../apps/server/src/db/client.ts', import.meta.url);
  const embedded = await startEmbeddedPostgres(dataDir);
  onCleanup(() => embedded.stop());
  return { url: await ensureDatabase(embedded.url, EMBEDDED_DATABASE), port: embedded.port };
}

/** Sends `signal`, then SIGKILL when the process has not exited after `graceMs`. */
function stopProcess(child, signal = 'SIGTERM', graceMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** The node arguments scripts/start.mjs runs the server with (its heap limit included). */
const SERVER_ARGS = ['--max-old-space-size=1024', '--import', 'tsx', 'apps/server/src/main.ts'];

/** The environment of every process the bench starts on the app's database (servers and the worker). */
function appEnv({ dataDir, databaseUrl }) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    // One DATA_DIR for every process: files and the secrets key are shared, as on one host.
    DATA_DIR: dataDir,
    WEB_DIST: webDist,
    // Request logs at 'info' would measure pino writing to a pipe, not the routes.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // Every request comes from 127.0.0.1: the per-address limit would answer 429 within a second.
    RATE_LIMIT_PER_MINUTE: '1000000000',
  };
}

/**
 * Starts the server as `npm start` does (SERVER_ARGS, NODE_ENV=production) on `port`. It
 * migrates and seeds the demo company itself (a second server finds both done). `workers: false`
 * leaves the background jobs to `startWorker`. Its output goes to server[-name].log in the data
 * folder.
 */
export async function startServer({ dataDir, databaseUrl, port, name = '', workers = true }) {
  const logFile = path.join(dataDir, name ? `server-${name}.log` : 'server.log');
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...appEnv({ dataDir, databaseUrl }),
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'true',
      WORKERS_IN_SERVER: String(workers),
    },
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  onCleanup(() => stopProcess(child));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(child, url, logFile);
  return { name, pid: child.pid, url, logFile, child };
}

/**
 * The background jobs as their own process: what `npm run worker` runs (apps/server's
 * `node --import tsx src/worker.ts`), started as node directly so its pid is the worker's own
 * (for its RSS and for stopping it). Resolves once it says it is running.
 */
export async function startWorker({ dataDir, databaseUrl }) {
  const logFile = path.join(dataDir, 'worker.log');
  const log = createWriteStream(logFile);
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=1024', '--import', 'tsx', 'apps/server/src/worker.ts'],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: appEnv({ dataDir, databaseUrl }) },
  );
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  onCleanup(() => stopProcess(child));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start\n${tail(logFile)}`)), 120_000);
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes('worker running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited with ${code}\n${tail(logFile)}`));
    });
  });
  return { name: 'worker', pid: child.pid, logFile, child };
}

const tail = (logFile) => (existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-3000) : '');

async function waitUntilUp(child, url, logFile) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not come up on ${url}\n${tail(logFile)}`);
}

/** Reads VmRSS and VmHWM (peak) of a process, in MB. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/**
 * Samples the RSS of each of `pids` (one pid or several: the API processes) every 200 ms; `take()`
 * returns the highest value of any of them since the last take.
 */
export function rssSampler(pids) {
  const list = [pids].flat();
  const now = () => Math.max(...list.map((pid) => memoryOf(pid).rss));
  let highest = 0;
  const timer = setInterval(() => {
    highest = Math.max(highest, now());
  }, 200);
  timer.unref();
  onCleanup(() => clearInterval(timer));
  return {
    take() {
      const value = Math.max(highest, now());
      highest = 0;
      return value;
    },
  };
}

export { onCleanup, stopProcess };
