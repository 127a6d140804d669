#!/usr/bin/env node
// `npm start`: builds the SPA when it is missing or older than its sources, then starts the server
// (embedded PostgreSQL unless DATABASE_URL is set) with the demo data.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'apps/web');
const builtAt = (() => {
  const index = path.join(web, 'dist/index.html');
  return existsSync(index) ? statSync(index).mtimeMs : 0;
})();

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const sources = Math.max(
  newestSource(path.join(web, 'src')),
  newestSource(path.join(root, 'packages/contracts/src')),
);
if (sources > builtAt) {
  console.log('[tumble] building the web app');
  const build = spawnSync('npm', ['run', 'build', '-w', '@tumble/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// V8 derives its heap limit from the machine's memory (about 4 GB on 24 GB) and grows the heap
// freely under it: under load the server reached 400-600 MB of RSS with under 100 MB live. With a
// 1 GB limit it collects sooner and stays near 250 MB at the same CPU per request; lower limits
// cost CPU (docs/performance.md). scripts/bench/stack.mjs starts the server the same way.
const server = spawn(
  process.execPath,
  ['--max-old-space-size=1024', '--import', 'tsx', 'apps/server/src/main.ts'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { NODE_ENV: 'production', ...process.env },
  },
);
// Ctrl-C reaches the whole process group; the server stops PostgreSQL itself. Forward SIGTERM.
process.on('SIGTERM', () => server.kill('SIGTERM'));
process.on('SIGINT', () => {});
server.on('exit', (code) => process.exit(code ?? 0));
