#!/usr/bin/env node
// `npm run bench`: builds the app, starts it on a fresh embedded PostgreSQL, loads a generated
// realistic dataset, drives the server from a second process and prints what parents and staff
// wait for, against the targets of the performance issue. See docs/performance.md.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { classRollScenario, generateTerm, generationLines, loadClasses } from './classes.mjs';
import { loadDataset } from './dataset.mjs';
import { judgeEnrolmentDay, placesByClass, prepareEnrolmentDay, runEnrolmentDay } from './enrolment-day.mjs';
import { bundleSizes, CHROMIUM, LIGHTHOUSE_PAGES, lighthousePages } from './frontend.mjs';
import { parseOptions } from './options.mjs';
import { crossProcessVisibility, startProxy, visibilityLines } from './processes.mjs';
import { frontendLines, loadTable, rushLines, spreadLine, targetLines, targets } from './report.mjs';
import { reportsSection } from './reports.mjs';
import { loadRollover, rolloverLines, runRollover } from './rollover.mjs';
import { judgeRush, placesTaken, prepareRush, rushJob } from './rush.mjs';
import { checkScenario, defineScenarios, drive } from './scenarios.mjs';
import {
  assertBuilt,
  buildWeb,
  cleanup,
  freePort,
  memoryOf,
  onCleanup,
  root,
  rssSampler,
  startDatabase,
  startServer,
  startWorker,
  tempDataDir,
  webDist,
} from './stack.mjs';

const say = (message) => console.log(`[bench] ${message}`);
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

function machine() {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}, ${os.type()} ${os.release()}`;
}

async function startStack(options) {
  if (options.build) {
    const t0 = performance.now();
    say('building the web app (vite build)');
    buildWeb();
    say(`built in ${seconds(t0)}`);
  } else assertBuilt();
  const dataDir = tempDataDir(options);
  const database = await startDatabase(dataDir);
  say(`embedded PostgreSQL on port ${database.port}, data in ${dataDir}`);
  // One process: the server as `npm start` runs it, jobs inside. More: API processes A, B, … with
  // their workers off and one worker process, all on this PostgreSQL. A migrates and seeds before
  // the next one starts (which then finds nothing to do).
  const multi = options.processes > 1;
  const servers = [];
  for (let i = 0; i < options.processes; i++) {
    const name = String.fromCharCode(65 + i);
    const server = await startServer({
      dataDir,
      databaseUrl: database.url,
      port: await freePort(),
      name: multi ? name : '',
      workers: !multi,
    });
    servers.push({ ...server, name });
    say(
      i === 0
        ? `server ${multi ? `${name} ` : ''}(pid ${server.pid}) migrated, seeded the demo and listens on ${server.url}`
        : `server ${name} (pid ${server.pid}) listens on ${server.url}`,
    );
  }
  const worker = multi ? await startWorker({ dataDir, databaseUrl: database.url }) : null;
  if (worker) say(`worker (pid ${worker.pid}) runs the background jobs (npm run worker)`);
  const proxy = multi ? await startProxy(servers) : null;
  if (proxy) say(`round-robin proxy on ${proxy.url} in front of ${servers.map((s) => s.name).join(', ')}`);
  // What every scenario talks to: the proxy, or the one server.
  const server = proxy ? { url: proxy.url, pid: servers[0].pid } : servers[0];
  const client = new pg.Client({ connectionString: database.url });
  // On Ctrl-C PostgreSQL shuts down with the rest of the process group and drops this connection:
  // that must not crash the bench before cleanup() has run.
  client.on('error', () => {});
  await client.connect();
  onCleanup(() => client.end());
  return { server, servers, worker, proxy, client };
}

async function load(client, options) {
  say(`loading the dataset (scale ${options.scale})`);
  const data = await loadDataset(client, options.scale, console.log);
  const c = data.counts;
  say(
    `loaded in ${data.loadSeconds.toFixed(1)} s (+ ${data.analyzeSeconds.toFixed(1)} s VACUUM ANALYZE): ` +
      `${c.companies} companies, ${c.users} users, ${c.children} children, ${c.events} events, ` +
      `${c.event_sessions} sessions, ${c.bookings} bookings, ${c.booking_places} booked session-days, ` +
      `${c.booking_children} booking children, ${c.payments} payments, ${c.party_bookings} party bookings`,
  );
  return data;
}

/** The class section (issue 13): its own company, the generation of a term, then its roll scenario. */
async function classSection({ server, client, data }) {
  say('loading the class-scale company');
  const classes = await loadClasses(client, data.monday, console.log);
  say(`generating the sessions of ${classes.terms[1].name} through the API`);
  const generation = await generateTerm(server.url, client, classes);
  say(
    `generated ${generation.added} sessions of ${generation.classes} classes in ${generation.seconds.toFixed(2)} s`,
  );
  return { classes, generation };
}

/** With several processes, the public scenarios and the baseline are also driven at process A alone. */
const comparedWithOne = (scenario) => scenario.baseline || scenario.group === 'public';

async function runScenarios({ server, servers, proxy, client, data, options, rss, classes }) {
  const all = [
    ...(await defineScenarios({ url: server.url, client, data })),
    ...(classes ? [await classRollScenario(server.url, classes)] : []),
  ];
  const scenarios = all.filter(
    (s) => s.baseline || !options.only || options.only.includes(s.name) || options.only.includes(s.section),
  );
  const rows = [];
  for (const scenario of scenarios) {
    await checkScenario(server.url, scenario);
    const connections = scenario.connections ?? options.connections;
    rss.take();
    const job = (url, share = connections) =>
      drive({
        url,
        connections: share,
        duration: options.duration,
        warmup: options.warmup,
        requests: scenario.requests,
        expect: scenario.expect,
      });
    proxy?.take();
    const result = await job(server.url);
    const spread = proxy?.take();
    const peak = rss.take();
    say(
      `${scenario.name}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99} ms, ${result.errors} errors` +
        (spread
          ? `; answered by ${spread.map((s) => `${s.name} ${s.total}${s.inFlight ? ` (${s.inFlight} still in flight)` : ''}`).join(', ')} (incl. warm-up)`
          : ''),
    );
    let single;
    let direct;
    if (proxy && comparedWithOne(scenario)) {
      single = await job(servers[0].url);
      say(
        `${scenario.name} at ${servers[0].name} alone: ${single.requestsPerSecond.toFixed(0)} req/s, p99 ${single.p99} ms`,
      );
      // The same connections split over the processes, each share driven straight at its server:
      // what the processes give together without the proxy's own cost.
      const shares = await Promise.all(
        servers.map((s, i) =>
          job(s.url, Math.floor(connections / servers.length) + (i < connections % servers.length ? 1 : 0)),
        ),
      );
      direct = {
        requestsPerSecond: shares.reduce((sum, r) => sum + r.requestsPerSecond, 0),
        p99: Math.max(...shares.map((r) => r.p99)),
      };
      rss.take();
      say(
        `${scenario.name} at ${servers.map((s) => s.name).join(' + ')} directly: ${direct.requestsPerSecond.toFixed(0)} req/s, p99 ≤ ${direct.p99} ms`,
      );
    }
    rows.push({ ...scenario, connections, result, single, direct, spread, rss: peak });
  }
  return rows;
}

async function runRush({ server, proxy, client, data, options, rss }) {
  const rush = await prepareRush(client, data, { parents: options.rushParents, places: options.rushPlaces });
  const job = await rushJob(server.url, rush);
  rss.take();
  proxy?.take();
  const result = await drive(job);
  const spread = proxy?.take() ?? null;
  const rushRss = rss.take();
  const taken = await placesTaken(client, rush);
  return { rush, result, taken, spread, verdict: judgeRush(rush, result, taken, spread), rss: rushRss };
}

/** Enrolment day (issue 14): 1,000 parents through the waiting room for 300 class places. */
async function runDay({ server, proxy, client, rss }) {
  say('loading the enrolment-day company (1,000 parents, 30 classes of 10 places)');
  const day = await prepareEnrolmentDay(client);
  say(`loaded in ${day.loadSeconds.toFixed(1)} s; enrolment opens at ${day.opensAt.toISOString()}`);
  rss.take();
  proxy?.take();
  const run = await runEnrolmentDay(server.url, day);
  const spread = proxy?.take();
  const verdict = judgeEnrolmentDay(day, run, await placesByClass(client, day));
  const lines = spread ? [...verdict.lines, `  answered by process: ${spreadLine(spread)}`] : verdict.lines;
  for (const line of lines) say(line);
  return { ...verdict, lines, rss: rss.take() };
}

/** Re-enrolment (issue 14): a rollover of 3,000 enrolments into the next term, dry run then commit. */
async function rolloverSection({ server, client, data }) {
  say('loading the rollover company (3,000 enrolments in 300 classes, the next term with the same classes)');
  const loaded = await loadRollover(client, data.monday, console.log);
  say(`rolling ${loaded.from.name} into ${loaded.to.name} through the API`);
  return rolloverLines(loaded, await runRollover(server.url, client, loaded));
}

async function frontend(server, options) {
  const sizes = bundleSizes(webDist);
  if (options.lighthouseRuns === 0) return { sizes, lh: null };
  if (!existsSync(CHROMIUM)) {
    say(`Lighthouse skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROME_PATH)`);
    return { sizes, lh: null };
  }
  // Performance (and accessibility) on every public page a parent lands on: /booking, the party
  // booking page and the registration page (issue 19: performance ≥ 95, LCP < 1.5 s, accessibility
  // 100 on each). `lh` is /booking's; `lh.pages` all three.
  const pages = await lighthousePages(server.url, options.lighthouseRuns, LIGHTHOUSE_PAGES, say);
  const lh = { ...pages[0], pages };
  lh.accessibilityPages = pages.map(({ page, accessibility }) => ({
    page: page.split('?')[0],
    ...accessibility,
  }));
  return { sizes, lh };
}

async function main() {
  const options = parseOptions();
  const started = performance.now();
  say(`machine: ${machine()}`);
  const stack = await startStack(options);
  const { server, servers, worker, proxy, client } = stack;
  const data = await load(client, options);
  const section =
    options.only &&
    !options.only.includes('classes') &&
    !options.only.includes('class roll') &&
    !options.only.includes('reports')
      ? null
      : await classSection({ server, client, data });
  const rss = rssSampler(servers.map((s) => s.pid));
  const rows = await runScenarios({ ...stack, data, options, rss, classes: section?.classes });
  // The reports (issue 17) on the class-scale company, after its term 2 is generated.
  const reports =
    section && (!options.only || options.only.includes('reports'))
      ? await reportsSection(server.url, client, section.classes)
      : null;
  const rush =
    options.only && !options.only.includes('rush') ? null : await runRush({ ...stack, data, options, rss });
  const rollover =
    options.only && !options.only.includes('rollover')
      ? null
      : await rolloverSection({ server, client, data });
  const day =
    options.only && !options.only.includes('enrolment-day') ? null : await runDay({ ...stack, rss });
  // Always (a few seconds): a staff change on A seen on B; with one process A and B are the same.
  const [a, b] = [servers[0], servers[1] ?? servers[0]];
  say(`cross-process: renaming the demo event on ${a.name}, polling the booking page on ${b.name}`);
  const visibility = await crossProcessVisibility({ a, b, client });
  const { sizes, lh } = await frontend(server, options);
  // VmHWM: each process's own peak over its whole life, so nothing between samples is missed.
  const peaks = [...servers, ...(worker ? [worker] : [])].map((p) => ({
    name: p.name,
    mb: memoryOf(p.pid).peak,
  }));
  const peakRss = Math.max(
    ...peaks.filter((p) => p.name !== 'worker').map((p) => p.mb),
    ...rows.map((r) => r.rss),
    rush?.rss ?? 0,
  );

  const lines = [
    '',
    `Tumble benchmark · ${new Date().toISOString()} · ${machine()}`,
    `dataset: scale ${options.scale}, loaded in ${data.loadSeconds.toFixed(1)} s; load: ${options.connections} connections, ${options.duration} s per scenario`,
    proxy
      ? `processes: ${servers.length} API (${servers.map((s) => `${s.name} pid ${s.pid}`).join(', ')}, workers off) + 1 worker (pid ${worker.pid}) on one PostgreSQL, every scenario through the round-robin proxy; "1 proc" = driven at ${servers[0].name} alone`
      : 'processes: 1 (the server as npm start runs it, jobs inside)',
    '',
    loadTable(rows),
    '',
    ...(section ? [...generationLines(section.classes, section.generation), ''] : []),
    ...(reports ? [...reports.lines, ''] : []),
    ...(rush ? rushLines(rush.rush, rush.result, rush.verdict, rush.taken, rush.spread) : []),
    ...(rollover ? ['', ...rollover.lines] : []),
    ...(day ? ['', ...day.lines] : []),
    '',
    ...visibilityLines(visibility, a, b),
    '',
    ...frontendLines(sizes, lh),
    '',
    proxy
      ? `peak RSS per process (VmHWM): ${peaks.map((p) => `${p.name} ${p.mb.toFixed(0)} MB`).join(', ')}`
      : `server peak RSS (VmHWM): ${peakRss.toFixed(0)} MB`,
    '',
    'targets (performance issue):',
    ...targetLines(
      targets({
        rows,
        verdict: rush?.verdict,
        generation: section?.generation,
        sizes,
        lh,
        peakRss,
        visibility,
      }),
    ),
    ...(rollover ? targetLines(rollover.checks) : []),
    ...(reports ? targetLines(reports.checks) : []),
    ...(day ? targetLines(day.checks.map((c) => ({ ...c, label: `enrolment day: ${c.label}` }))) : []),
    '',
    `total ${seconds(started)}`,
  ];
  console.log(lines.join('\n'));
  const results = path.join(root, 'node_modules/.cache/tumble-bench');
  mkdirSync(results, { recursive: true });
  writeFileSync(
    path.join(results, 'last-run.json'),
    JSON.stringify(
      { options, counts: data.counts, rows, rush, classes: section, sizes, lh, peakRss, peaks, visibility },
      null,
      2,
    ),
  );
  if (rollover?.checks.some((c) => !c.ok)) return 1;
  if (reports?.checks.some((c) => !c.ok)) return 1;
  return rush?.verdict.checks.some((c) => !c.ok) || day?.checks.some((c) => !c.ok) ? 1 : 0;
}

let exiting = false;
async function exit(code) {
  if (exiting) return;
  exiting = true;
  await cleanup();
  process.exit(code);
}
// Ctrl-C reaches the server, PostgreSQL and the driver too (one process group); stop what is left.
const interrupt = (code) => {
  say('interrupted: stopping everything it started');
  void exit(code);
};
process.on('SIGINT', () => interrupt(130));
process.on('SIGTERM', () => interrupt(143));

main().then(exit, (error) => {
  // After Ctrl-C the driver and the database vanish mid-run: that is not a failure to report.
  if (!exiting) console.error(`[bench] failed: ${error.stack ?? error}`);
  void exit(1);
});
