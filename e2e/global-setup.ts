import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { TestProject } from 'vitest/node';
import { freePort } from '../apps/server/src/db/embedded.ts';
import {
  mailchimpStubEnv,
  startMailchimpStub,
} from '../apps/server/src/features/communications/mailchimp/testing/mailchimp-stub.ts';
import { start as startStripeStub } from '../apps/server/src/platform/payments/testing/stripe-stub.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** Folder where the test SMTP server writes every mail the app sends, one .eml file each. */
    mailDir: string;
  }
}

const root = path.resolve(import.meta.dirname, '..');

/** Receives the app's mail over real SMTP and keeps each message as a file the tests read. */
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

async function waitForHealth(url: string, child: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early with code ${child.exitCode}`);
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

/**
 * End-to-end tests run against the built app, started as in production (`main.ts`) on a fresh
 * embedded PostgreSQL with the demo data, on a free port, sending mail to a local SMTP server.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('web build failed');
  }
  // Screenshots of this run only: a stale picture of an earlier run must not pass for a new one.
  await rm(path.join(root, 'e2e/artifacts'), { recursive: true, force: true });
  const webDist = await snapshotWebDist();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tumble-e2e-'));
  await chmod(dataDir, 0o755);
  const mailDir = await mkdtemp(path.join(os.tmpdir(), 'tumble-e2e-mail-'));
  const smtp = await startSmtp(mailDir);
  // Mailchimp's Marketing API and OAuth endpoints, spoken by a local stub (e2e/integrations.spec.ts).
  const mailchimp = await startMailchimpStub();
  // Stripe Connect's OAuth pages and token endpoint, spoken by a local stub (e2e/payment-connections.spec.ts).
  const stripe = await startStripeStub();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      LOG_LEVEL: 'warn',
      WEB_DIST: webDist,
      // Every browser test loads the SPA (a dozen files per page) from 127.0.0.1 in a fresh context;
      // the whole run makes far more requests a minute than one visitor would, and the global
      // per-IP limit counts static files too. Sign-in throttling per account and IP still applies.
      RATE_LIMIT_PER_MINUTE: '100000',
      // No SMTP throttle (600 a minute by default): the run queues more mail than a company sends (billing
      // runs, mass mail), and a spec waiting 20 s for its one mail must not sit behind that backlog.
      SMTP_MAX_PER_MINUTE: '0',
      ...mailchimpStubEnv(mailchimp),
      // Only what connecting needs: without a publishable key the installation takes no Stripe payments itself.
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_API_BASE: stripe.url,
      STRIPE_CONNECT_CLIENT_ID: 'ca_stub',
      STRIPE_CONNECT_URL: stripe.url,
    },
  });
  await waitForHealth(baseUrl, child);
  project.provide('baseUrl', baseUrl);
  project.provide('mailDir', mailDir);

  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timeout);
    await smtp.close();
    await mailchimp.close();
    await stripe.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(webDist, { recursive: true, force: true });
    await rm(mailDir, { recursive: true, force: true });
  };
}
