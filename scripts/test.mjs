#!/usr/bin/env node
// `npm test`: typecheck, lint, unit, integration (real PostgreSQL), web components (jsdom), then
// end-to-end in Chromium against the built app. Runs every stage, prints the totals last.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'node_modules/.cache/test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

let passed = 0;
let failed = 0;
const failures = [];

function run(label, command, args, env = {}) {
  console.log(`\n━━ ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

/** A check with no test count of its own (typecheck, lint, build) counts as one test. */
function check(label, command, args) {
  if (run(label, command, args)) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

function vitest(project) {
  const outputFile = path.join(reports, `${project}.json`);
  const ok = run(`${project} tests`, 'npx', [
    'vitest',
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${outputFile}`,
  ]);
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
  return (
    run('apt-get update', 'apt-get', ['update', '-qq']) &&
    run('install chromium', 'apt-get', ['install', '-y', '-qq', 'chromium'], {
      DEBIAN_FRONTEND: 'noninteractive',
    })
  );
}

check('typecheck', 'npx', ['tsc', '-b']);
check('lint', 'npx', ['biome', 'check', '.']);
vitest('unit');
vitest('integration');
vitest('web');
check('build', 'npm', ['run', 'build', '--silent']);
if (ensureChromium()) vitest('e2e');
else {
  failed++;
  failures.push('e2e: chromium missing');
}

if (failures.length) console.log(`\nFailed stages: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
