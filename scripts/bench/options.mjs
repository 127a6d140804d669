// Command-line options of `npm run bench`. Every default is the full-size run the issue asks for;
// the flags exist to keep development runs short on a small machine.
import { parseArgs } from 'node:util';

const HELP = `npm run bench -- [options]

  --scale N             multiply the dataset (default 1: 200 companies, 20,000 parents, 150,000 bookings)
  --duration S          seconds per load scenario (default 10)
  --warmup S            unmeasured seconds before each scenario (default 2)
  --connections N       concurrent connections per scenario (default 100)
  --rush-parents N      parents checking out at once in the booking rush (default 500)
  --rush-places N       places of the rushed session-date (default 50)
  --lighthouse-runs N   Lighthouse runs; the median by performance score is printed (default 1, 0 skips)
  --only a,b            run only these scenarios (names as in the table, rush, and classes: the class-scale
                        company, its term generation and class roll; rollover: re-enrolment of 3,000
                        enrolments; enrolment-day: 1,000 parents queue for 300 places in 30 classes;
                        reports: every report timed on the class-scale company, with its figures);
                        the baseline and the cross-process check (see --processes) always run
  --processes N         API processes (default 1: the server as npm start runs it, jobs inside). With 2 or
                        more: that many API processes (WORKERS_IN_SERVER=false) and one worker process
                        (npm run worker) on the one PostgreSQL, behind a round-robin proxy in the bench;
                        every scenario runs through the proxy and prints how many answers each process
                        gave; the public scenarios and the baseline are also driven at process A alone
                        ("1 proc req/s", "× one proc"). Every run renames the demo event on process A
                        and polls the booking page on B until it shows it (target < 1 s; A = B with 1)
  --no-build            reuse the web build of the previous run (node_modules/.cache/tumble-bench/web)
  --keep                keep the temporary data folder (its path is printed)
  --help                this text`;

function number(value, name, { min = 0, integer = false } = {}) {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n)))
    throw new Error(`--${name} must be a${integer ? 'n integer' : ' number'} ≥ ${min}, not "${value}"`);
  return n;
}

export function parseOptions(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      scale: { type: 'string', default: '1' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '100' },
      'rush-parents': { type: 'string', default: '500' },
      'rush-places': { type: 'string', default: '50' },
      'lighthouse-runs': { type: 'string', default: '1' },
      processes: { type: 'string', default: '1' },
      only: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  return {
    scale: number(values.scale, 'scale', { min: 0.01 }),
    duration: number(values.duration, 'duration', { min: 1 }),
    warmup: number(values.warmup, 'warmup'),
    connections: number(values.connections, 'connections', { min: 1, integer: true }),
    rushParents: number(values['rush-parents'], 'rush-parents', { min: 1, integer: true }),
    rushPlaces: number(values['rush-places'], 'rush-places', { min: 1, integer: true }),
    lighthouseRuns: number(values['lighthouse-runs'], 'lighthouse-runs', { integer: true }),
    processes: number(values.processes, 'processes', { min: 1, integer: true }),
    only: values.only ? values.only.split(',').map((s) => s.trim()) : null,
    build: !values['no-build'],
    keep: values.keep,
  };
}
