#!/usr/bin/env node
// `npm test`: typecheck, lint, unit, integration (real PostgreSQL), web components (jsdom) and the
// web build side by side, then end-to-end in Chromium against the built app. Runs every stage,
// prints each stage's time and the totals last.
//
// E2E_WORKERS sets how many apps and browsers the end-to-end stage runs at once (default: one per
// core, at most 4). E2E_CLOCK (an ISO instant, e.g. 2026-12-08T17:30:00Z) runs the end-to-end stage
// with every process's clock moved to that instant and ticking on, through libfaketime; E2E_SHUFFLE=1
// runs the spec files in a random order.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'node_modules/.cache/test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

let passed = 0;
let failed = 0;
const failures = [];
const timings = [];

/** Runs one stage, its output kept until it ends so stages side by side do not interleave. */
function run(label, command, args, env = {}, { stream = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', stream ? 'inherit' : 'pipe', stream ? 'inherit' : 'pipe'],
      env: { ...process.env, ...env },
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    if (stream) console.log(`\n━━ ${label}: ${command} ${args.join(' ')}`);
    child.on('close', (code) => {
      const seconds = (Date.now() - started) / 1000;
      timings.push({ label, seconds });
      if (!stream) {
        console.log(`\n━━ ${label}: ${command} ${args.join(' ')}`);
        process.stdout.write(Buffer.concat(output));
      }
      console.log(`━━ ${label}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s`);
      resolve(code === 0);
    });
  });
}

/** A check with no test count of its own (typecheck, lint, build) counts as one test. */
async function check(label, command, args) {
  if (await run(label, command, args)) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

async function vitest(project, extraArgs = [], env = {}, options = {}) {
  const outputFile = path.join(reports, `${project}.json`);
  const ok = await run(
    `${project} tests`,
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${outputFile}`,
      ...extraArgs,
    ],
    env,
    options,
  );
  if (existsSync(outputFile)) {
    const report = JSON.parse(readFileSync(outputFile, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    // A suite that fails to load has no failed tests but must still fail the run.
    const brokenFiles = report.testResults.filter(
      (r) => r.status === 'failed' && r.assertionResults.length === 0,
    );
    failed += brokenFiles.length;
    if (report.numTotalTests === 0) {
      failed++;
      failures.push(`${project}: no tests ran`);
    }
  } else {
    failed++;
  }
  if (!ok) failures.push(`${project} tests`);
}

function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return true;
  if (process.getuid?.() !== 0) {
    console.error(
      '\nChromium is missing. Install it with `sudo apt-get install -y chromium` (Debian) and run `npm test` again.',
    );
    return false;
  }
  console.log("\nChromium is missing: installing Debian's chromium package");
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return update.status === 0 && install.status === 0;
}

const FAKETIME_LIBRARY = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

/** The environment that moves every e2e process's clock (apps, PostgreSQL, Chromium) to E2E_CLOCK. */
function clockEnv() {
  const at = process.env.E2E_CLOCK;
  if (!at) return {};
  const target = Date.parse(at);
  if (Number.isNaN(target)) throw new Error(`E2E_CLOCK is not an instant: ${at}`);
  if (!existsSync(FAKETIME_LIBRARY)) {
    throw new Error(`E2E_CLOCK needs libfaketime: apt-get install -y faketime (${FAKETIME_LIBRARY})`);
  }
  const seconds = Math.round((target - Date.now()) / 1000);
  console.log(`\nEnd-to-end clock: ${new Date(target).toISOString()} (${seconds} s from now)`);
  // An offset only: the clock ticks on at real speed from there, so timers and timeouts keep real
  // time. (Faking the monotonic clock too, or not, with FAKETIME_DONT_FAKE_MONOTONIC, makes every
  // page load in Chromium take seconds.)
  return { LD_PRELOAD: FAKETIME_LIBRARY, FAKETIME: `${seconds >= 0 ? '+' : ''}${seconds}` };
}

function e2eWorkers() {
  const configured = Number(process.env.E2E_WORKERS);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(1, Math.min(os.availableParallelism(), 4));
}

const started = Date.now();
// Side by side. Integration tests mostly wait on PostgreSQL and the jobs, so four workers run
// them whatever the cores; the checks, unit and web tests use the processor meanwhile.
await Promise.all([
  vitest('integration', ['--maxWorkers=4']),
  (async () => {
    await check('typecheck', 'npx', ['tsc', '-b']);
    await check('lint', 'npx', ['biome', 'check', '.']);
    await vitest('unit');
    await vitest('web', ['--maxWorkers=2']);
    await check('build', 'npm', ['run', 'build', '--silent']);
  })(),
]);
if (ensureChromium()) {
  const workers = e2eWorkers();
  const shuffle = process.env.E2E_SHUFFLE === '1' ? ['--sequence.shuffle.files'] : [];
  await vitest(
    'e2e',
    [`--maxWorkers=${workers}`, ...shuffle],
    { E2E_WORKERS: String(workers), ...clockEnv() },
    { stream: true },
  );
} else {
  failed++;
  failures.push('e2e: chromium missing');
}

console.log('\nStage times:');
for (const { label, seconds } of timings)
  console.log(`  ${label.padEnd(18)} ${seconds.toFixed(0).padStart(5)} s`);
console.log(`  ${'whole run'.padEnd(18)} ${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s`);
if (failures.length) console.log(`\nFailed stages: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
