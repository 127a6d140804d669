// The front end of the public booking route: what its production build makes a parent's browser
// download (gzipped), and a Lighthouse run on the demo booking page.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { onCleanup } from './stack.mjs';

export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const gzipKb = (file) => gzipSync(readFileSync(file), { level: 9 }).length / 1024;

/** Files index.html loads before any route: the entry script, its modulepreloads and stylesheets. */
function initialFiles(html) {
  const refs = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  return [...new Set(refs)];
}

/**
 * The files the /booking route adds when the router loads it lazily. Vite compiles each lazy
 * `import('…/booking-page')` into `import("./booking-page-<hash>.js"), __vite__mapDeps([i, …])`,
 * where the indices point into the list of every file that chunk needs (its JS and CSS), or into a
 * bare `import("./booking-page-<hash>.js")` when everything else it needs is loaded already.
 */
function routeFiles(entrySource, routeModule) {
  const call = new RegExp(
    `import\\("\\./(${routeModule}-[\\w-]+\\.js)"\\)(?:,__vite__mapDeps\\(\\[([\\d,]+)\\]\\))?`,
  ).exec(entrySource);
  if (!call) throw new Error(`cannot find the lazy import of ${routeModule} in the entry chunk`);
  if (!call[2]) return [`assets/${call[1]}`];
  const list = /__vite__mapDeps=.*?m\.f\|\|\(m\.f=(\[[^\]]*\])/s.exec(entrySource);
  if (!list) throw new Error('cannot find the list of files the lazy imports need in the entry chunk');
  const files = JSON.parse(list[1]);
  return [`assets/${call[1]}`, ...call[2].split(',').map((i) => files[Number(i)])];
}

/**
 * The JS files `file` imports statically, transitively (`import{…}from"./x.js"`, `import"./x.js"`):
 * the browser loads them before the module runs, whether or not Vite listed them for preloading.
 */
function staticImports(dist, file, found = new Set()) {
  const source = readFileSync(path.join(dist, file), 'utf8');
  for (const m of source.matchAll(/(?:\bfrom|\bimport)\s*"\.\/([\w.-]+\.js)"/g)) {
    const dependency = `assets/${m[1]}`;
    if (found.has(dependency)) continue;
    found.add(dependency);
    staticImports(dist, dependency, found);
  }
  return found;
}

/** Gzipped KB of JS and CSS: loaded by index.html (initial) and added by the /booking route. */
export function bundleSizes(dist, routeModule = 'booking-page') {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const initial = initialFiles(html);
  const entry = initial.find((f) => f.endsWith('.js') && html.includes(`src="/${f}"`));
  const listed = routeFiles(readFileSync(path.join(dist, entry), 'utf8'), routeModule);
  const withImports = listed.flatMap((f) => (f.endsWith('.js') ? [f, ...staticImports(dist, f)] : [f]));
  const route = [...new Set(withImports)].filter((f) => !initial.includes(f));
  const sum = (files, ext) =>
    files.filter((f) => f.endsWith(ext)).reduce((kb, f) => kb + gzipKb(path.join(dist, f)), 0);
  const js = { initial: sum(initial, '.js'), route: sum(route, '.js') };
  const css = { initial: sum(initial, '.css'), route: sum(route, '.css') };
  return {
    js: { ...js, total: js.initial + js.route },
    css: { ...css, total: css.initial + css.route },
    files: { initial, route },
  };
}

/** Issue 19: the JS a parent's browser loads for /booking (initial files + the route's), gzipped. */
export const BOOKING_JS_BUDGET_KB = 150;

/** The files of one side, largest first, as `name size KB` lines. */
const fileLines = (dist, files) =>
  files
    .filter((f) => f.endsWith('.js'))
    .map((f) => [f, gzipKb(path.join(dist, f))])
    .sort((a, b) => b[1] - a[1])
    .map(([f, kb]) => `    ${kb.toFixed(1).padStart(6)} KB  ${f}`);

/**
 * `node scripts/bench/frontend.mjs [dist]` (default apps/web/dist, after `npm run build`): the
 * /booking JS of that build file by file against the budget, in seconds and without the dataset
 * of the full bench; exits 1 over the budget.
 */
function checkBuild(dist) {
  const sizes = bundleSizes(dist);
  const ok = sizes.js.total < BOOKING_JS_BUDGET_KB;
  console.log(
    [
      `/booking JS gzipped (${dist}):`,
      `  initial ${sizes.js.initial.toFixed(1)} KB`,
      ...fileLines(dist, sizes.files.initial),
      `  route ${sizes.js.route.toFixed(1)} KB (${sizes.files.route.filter((f) => f.endsWith('.js')).length} files)`,
      ...fileLines(dist, sizes.files.route).slice(0, 8),
      `  total ${sizes.js.total.toFixed(1)} KB: ${ok ? 'under' : 'OVER'} the ${BOOKING_JS_BUDGET_KB} KB budget`,
    ].join('\n'),
  );
  return ok;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = process.argv[2] ?? fileURLToPath(new URL('../../apps/web/dist', import.meta.url));
  process.exitCode = checkBuild(dist) ? 0 : 1;
}

/**
 * The accessibility category's score (0–100) and the title of each audit it fails (issue 19:
 * 100 on the public pages).
 */
function accessibilityOf(lhr) {
  const category = lhr.categories.accessibility;
  return {
    score: Math.round((category.score ?? 0) * 100),
    failing: category.auditRefs
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a && a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
      .map((a) => a.title),
  };
}

/** One Lighthouse run (mobile, its default settings) in a fresh headless Chromium. */
async function lighthouseOnce(url, categories = ['performance', 'accessibility']) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: CHROMIUM_FLAGS,
    logLevel: 'silent',
  });
  // Chromium runs in its own process group: Ctrl-C does not reach it, cleanup() does.
  onCleanup(() => chrome.kill());
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: categories,
    });
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    if (!categories.includes('performance')) return { accessibility: accessibilityOf(lhr) };
    const audit = (id) => lhr.audits[id]?.numericValue;
    const transferred = (lhr.audits['network-requests']?.details?.items ?? []).reduce(
      (sum, item) => sum + (item.transferSize ?? 0),
      0,
    );
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      accessibility: accessibilityOf(lhr),
      lcp: audit('largest-contentful-paint'),
      fcp: audit('first-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      transferredKb: transferred / 1024,
      opportunities: Object.values(lhr.audits)
        .filter((a) => a.details?.type === 'opportunity' && (a.details.overallSavingsMs ?? 0) >= 100)
        .map((a) => `${a.title} (~${Math.round(a.details.overallSavingsMs)} ms)`),
    };
  } finally {
    await chrome.kill();
  }
}

/** `runs` Lighthouse runs; the median by performance score (Lighthouse's own advice for variance). */
export async function lighthouseRuns(url, runs) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    // On a busy machine Lighthouse sometimes loses its own trace (NO_NAVSTART, "Please run
    // Lighthouse again"): a run is tried a second time before the bench gives up.
    results.push(await lighthouseOnce(url).catch(() => lighthouseOnce(url)));
  }
  results.sort((a, b) => a.score - b.score);
  return { ...results[Math.floor((results.length - 1) / 2)], runs: results.length };
}

/**
 * The public pages a parent lands on (issue 19: each gets its event or company header in the first
 * HTML), measured one after another, `runs` times each: the median of each, /booking first.
 */
export const LIGHTHOUSE_PAGES = [
  '/booking?e=317c31&authhash=demo',
  '/birthday-party/booking/?authhash=demo',
  '/registration/?f=term-classes&authhash=demo',
];
export async function lighthousePages(baseUrl, runs, pages = LIGHTHOUSE_PAGES, say = () => {}) {
  const results = [];
  for (const page of pages) {
    say(`Lighthouse on ${page} (${runs} run(s))`);
    results.push({ page, ...(await lighthouseRuns(`${baseUrl}${page}`, runs)) });
  }
  return results;
}

/** Lighthouse's accessibility category alone on `url` (one run: the audits do not vary by load). */
export async function lighthouseAccessibility(url) {
  return (await lighthouseOnce(url, ['accessibility'])).accessibility;
}
