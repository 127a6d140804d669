import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../apps/server/src/db/client.ts';
import { freePort, startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import {
  mailchimpStubEnv,
  startMailchimpStub,
} from '../apps/server/src/features/communications/mailchimp/testing/mailchimp-stub.ts';
import { start as startStripeStub } from '../apps/server/src/platform/payments/testing/stripe-stub.ts';
import { makeTemplateDatabase } from '../apps/server/src/testing/global-setup.ts';

/** What one worker's specs talk to: an app of their own on a database of their own. */
export interface E2eServer {
  baseUrl: string;
  /** Folder where this app's test SMTP server writes every mail it sends, one .eml file each. */
  mailDir: string;
  /** This app's database, where a spec seeds its own company (support/company.ts). */
  databaseUrl: string;
  /** This app's stdout and stderr, for the lines a failing test prints. */
  logFile: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One app per worker, indexed by VITEST_POOL_ID − 1. */
    servers: E2eServer[];
  }
}

const root = path.resolve(import.meta.dirname, '..');
const TEMPLATE = 'tumble_e2e_template';

/** Receives an app's mail over real SMTP and keeps each message as a file the tests read. */
async function startSmtp(mailDir: string) {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const file = path.join(mailDir, `${Date.now()}-${++count}.eml`);
        writeFile(file, Buffer.concat(chunks)).then(() => callback(), callback);
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Copies the built SPA to a folder of this run, so a rebuild of apps/web/dist while the tests run
 * (vite empties the folder first) cannot pull pages from under them. A copy taken mid-build (index
 * missing, or naming assets that are not there) is taken again.
 */
async function snapshotWebDist(): Promise<string> {
  const source = path.join(root, 'apps/web/dist');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const copy = await mkdtemp(path.join(os.tmpdir(), 'tumble-e2e-web-'));
    try {
      await cp(source, copy, { recursive: true });
      const index = await readFile(path.join(copy, 'index.html'), 'utf8');
      const assets = [...index.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1] as string);
      if (assets.length > 0 && assets.every((asset) => existsSync(path.join(copy, asset)))) return copy;
    } catch {
      // mid-build: try again
    }
    await rm(copy, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`no complete web build in ${source}`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

async function waitForHealth(url: string, child: ChildProcess, logFile: string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(`server exited early with code ${child.exitCode}:\n${log}`);
    }
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy within 120 s');
}

async function cloneTemplate(adminUrl: string, name: string): Promise<string> {
  const admin = connectDatabase(adminUrl, { max: 1 });
  await admin.pool.query(`create database ${name} template ${TEMPLATE}`);
  await admin.close();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

interface Worker {
  server: E2eServer;
  stop(): Promise<void>;
}

/**
 * One worker's app: started as in production (`main.ts`) on its own clone of the template, with
 * the demo company seeded, on a free port, sending mail to an SMTP server of its own, with its own
 * Mailchimp and Stripe Connect stubs and its own files folder.
 */
async function startWorker(index: number, adminUrl: string, webDist: string): Promise<Worker> {
  const databaseUrl = await cloneTemplate(adminUrl, `tumble_e2e_w${index}`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `tumble-e2e-w${index}-`));
  const mailDir = await mkdtemp(path.join(os.tmpdir(), `tumble-e2e-mail-w${index}-`));
  const logFile = path.join(root, 'e2e/artifacts', `server-w${index}.log`);
  const log = createWriteStream(logFile);
  const smtp = await startSmtp(mailDir);
  // Mailchimp's Marketing API and OAuth endpoints, spoken by a local stub (e2e/integrations.spec.ts).
  const mailchimp = await startMailchimpStub();
  // Stripe Connect's OAuth pages and token endpoint, spoken by a local stub (e2e/payment-connections.spec.ts).
  const stripe = await startStripeStub();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      TZ: 'UTC',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      LOG_LEVEL: 'warn',
      WEB_DIST: webDist,
      // Every browser test loads the SPA (a dozen files per page) from 127.0.0.1 in a fresh context;
      // the whole run makes far more requests a minute than one visitor would, and the global
      // per-IP limit counts static files too. Sign-in throttling per account and IP still applies.
      RATE_LIMIT_PER_MINUTE: '100000',
      // No SMTP throttle (600 a minute by default): a spec waiting 20 s for its one mail must not
      // sit behind the billing runs and mass mail of the specs before it.
      SMTP_MAX_PER_MINUTE: '0',
      ...mailchimpStubEnv(mailchimp),
      // Only what connecting needs: without a publishable key the installation takes no Stripe payments itself.
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_API_BASE: stripe.url,
      STRIPE_CONNECT_CLIENT_ID: 'ca_stub',
      STRIPE_CONNECT_URL: stripe.url,
    },
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  await waitForHealth(baseUrl, child, logFile);
  return {
    server: { baseUrl, mailDir, databaseUrl, logFile },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timeout);
      }
      log.end();
      await smtp.close();
      await mailchimp.close();
      await stripe.close();
      await rm(dataDir, { recursive: true, force: true });
      await rm(mailDir, { recursive: true, force: true });
    },
  };
}

/** How many apps to start: one per worker the e2e project runs (scripts/test.mjs sets E2E_WORKERS). */
function workerCount(project: TestProject): number {
  const configured = Number(process.env.E2E_WORKERS);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(1, project.globalConfig.maxWorkers);
}

/**
 * End-to-end tests: one embedded PostgreSQL for the run, a migrated template database, and one app
 * per worker on its own clone of it. Specs in different workers share nothing but the built SPA.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('web build failed');
  }
  // Screenshots of this run only: a stale picture of an earlier run must not pass for a new one.
  await rm(path.join(root, 'e2e/artifacts'), { recursive: true, force: true });
  await mkdir(path.join(root, 'e2e/artifacts'), { recursive: true });
  const webDist = await snapshotWebDist();
  const pgDir = await mkdtemp(path.join(os.tmpdir(), 'tumble-e2e-pg-'));
  await chmod(pgDir, 0o755);
  const postgres = await startEmbeddedPostgres(pgDir);
  const adminUrl = postgres.url;
  await makeTemplateDatabase(adminUrl, TEMPLATE);
  const count = workerCount(project);
  const workers: Worker[] = [];
  const stopAll = async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await postgres.stop();
    await rm(pgDir, { recursive: true, force: true });
    await rm(webDist, { recursive: true, force: true });
  };
  try {
    await Promise.all(
      Array.from({ length: count }, async (_, i) =>
        workers.push(await startWorker(i + 1, adminUrl, webDist)),
      ),
    );
  } catch (error) {
    await stopAll();
    throw error;
  }
  project.provide(
    'servers',
    workers.map((worker) => worker.server),
  );
  return stopAll;
}
