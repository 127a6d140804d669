// `--processes N` (issue 19, Scale): N API processes and one worker process on the one PostgreSQL,
// behind a small round-robin proxy in the bench, so every scenario runs through the proxy while each
// process can still be addressed alone. Also the cross-process check: a staff change made on process
// A, polled on process B until B shows it.
import http from 'node:http';
import { onCleanup } from './stack.mjs';

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1): not forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);
const endToEnd = (headers) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));

/**
 * A round-robin HTTP proxy on loopback in front of `backends` (`{ name, url }`), one keep-alive agent
 * per backend. It counts the answers of each backend by status; `take()` returns the counts since the
 * last take. It runs in the bench's own process, which is idle while the forked driver loads it.
 */
export async function startProxy(backends) {
  const targets = backends.map((backend) => ({
    ...backend,
    port: Number(new URL(backend.url).port),
    // No socket limit: a rush opens hundreds of connections at once, and queueing them here would
    // be the proxy's delay, not the servers'.
    agent: new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, maxFreeSockets: 1024 }),
    statuses: {},
    /** Requests sent to it and not answered yet. */
    inFlight: 0,
  }));
  let next = 0;
  const server = http.createServer((req, res) => {
    const target = targets[next];
    next = (next + 1) % targets.length;
    // Counted until the server answers (or fails), even when the client has gone meanwhile.
    target.inFlight++;
    let waiting = true;
    const answered = () => {
      if (waiting) target.inFlight--;
      waiting = false;
    };
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: req.method,
        path: req.url,
        headers: endToEnd(req.headers),
        agent: target.agent,
      },
      (answer) => {
        answered();
        target.statuses[answer.statusCode] = (target.statuses[answer.statusCode] ?? 0) + 1;
        res.writeHead(answer.statusCode, answer.statusMessage, endToEnd(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      answered();
      target.statuses.proxyError = (target.statuses.proxyError ?? 0) + 1;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`bench proxy: ${target.name} failed: ${error.message}`);
    });
    req.pipe(upstream);
  });
  // autocannon keeps its connections open between requests: so does the proxy.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(
    () =>
      new Promise((resolve) => {
        for (const t of targets) t.agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /**
     * `[{ name, statuses: { '200': n, … }, total, inFlight }]`: answers since the last take, and the
     * requests still waiting for theirs (a process that stalls shows here).
     */
    take() {
      return targets.map((t) => {
        const statuses = t.statuses;
        t.statuses = {};
        const total = Object.values(statuses).reduce((a, b) => a + b, 0);
        return { name: t.name, statuses, total, inFlight: t.inFlight };
      });
    },
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function json(response, what) {
  if (!response.ok)
    throw new Error(`${what} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return response.json();
}

/** The demo company's first published event and its /booking code, read from the database. */
async function demoEvent(client) {
  const { rows } = await client.query(
    `select e.id, e.company_id from events e join companies c on c.id = e.company_id
     where c.authhash = 'demo' and e.published order by e.id limit 1`,
  );
  if (!rows[0]) throw new Error('the demo company has no published event');
  const { id, company_id: companyId } = rows[0];
  return { id, e: Buffer.from(`${companyId}|${id}`).toString('hex') };
}

/** POST /rest as the admin SPA signs in; the session token comes back in x-auth-token. */
async function signInOn(url, username, password) {
  const response = await fetch(`${url}/rest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`sign-in on ${url} failed: ${response.status}`);
  return response.headers.get('x-auth-token');
}

const escapeHtml = (text) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

/**
 * "A staff change on process A is visible on process B within 1 s" (issue 19). As the demo
 * administrator on A, renames the demo event through the admin form the SPA uses (GET …/edit, then
 * POST the form's values back with a new, unique name); from the moment A has answered (the change
 * is committed), polls on B every `pollMs` what a parent's /booking reads: the API call
 * `GET /api/v1/booking?e&authhash=demo` and, when the server renders the event's header into the
 * page's HTML (it holds the name before the change), `GET /booking?e&authhash=demo` too, until both
 * show the new name. Then puts the name back and waits until B no longer shows the bench's name.
 * `runs` times; the worst delay is the figure. With one process, A and B are the same server.
 */
export async function crossProcessVisibility({ a, b, client, runs = 5, pollMs = 25, limitMs = 5000 }) {
  const event = await demoEvent(client);
  const token = await signInOn(a.url, 'admin@demo.test', 'demo-admin-1');
  const staff = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const formUrl = `${a.url}/api/v1/admin/events/${event.id}`;
  const form = await json(await fetch(`${formUrl}/edit`, { headers: staff }), 'the event form');
  const values = Object.fromEntries(form.fields.map((f) => [f.name, f.value]));
  const query = `e=${event.e}&authhash=demo`;
  const api = {
    url: `${b.url}/api/v1/booking?${query}`,
    shows: (body, name) => body.includes(JSON.stringify(name)),
  };
  const html = { url: `${b.url}/booking?${query}`, shows: (body, name) => body.includes(escapeHtml(name)) };
  const rendered = html.shows(await (await fetch(html.url)).text(), values.name);
  const pages = rendered ? [api, html] : [api];

  /** Saves `name` on A, then polls B until `seen(page, body)` holds for every page; ms after A answered. */
  async function change(name, seen) {
    const saved = await json(
      await fetch(formUrl, { method: 'POST', headers: staff, body: JSON.stringify({ ...values, name }) }),
      'saving the event',
    );
    if (saved.errors && Object.keys(saved.errors).length > 0)
      throw new Error(`saving the event was refused: ${JSON.stringify(saved.errors)}`);
    const committed = performance.now();
    const after = new Map();
    let polls = 0;
    while (after.size < pages.length) {
      polls++;
      const bodies = await Promise.all(pages.map(async (page) => (await fetch(page.url)).text()));
      const waited = performance.now() - committed;
      pages.forEach((page, i) => {
        if (!after.has(page) && seen(page, bodies[i])) after.set(page, waited);
      });
      if (after.size === pages.length) break;
      if (waited > limitMs) {
        for (const page of pages) if (!after.has(page)) after.set(page, Number.POSITIVE_INFINITY);
        break;
      }
      await sleep(pollMs);
    }
    // polls 1: the first answer after the save already showed it (the delay is that answer's time).
    return { api: after.get(api), html: after.get(html), ms: Math.max(...after.values()), polls };
  }

  const delays = [];
  try {
    for (let run = 1; run <= runs; run++) {
      // A name that appears nowhere else, so "shown" and "gone" are unambiguous.
      const name = `Bench rename ${run} ${Date.now().toString(36)}`;
      delays.push(await change(name, (page, body) => page.shows(body, name)));
      // Put it back, and let B drop the bench's name before the next run.
      await change(values.name, (page, body) => !page.shows(body, name));
    }
  } finally {
    // On a failure half-way, the demo event keeps its name all the same.
    await fetch(formUrl, { method: 'POST', headers: staff, body: JSON.stringify(values) }).catch(() => {});
  }
  const worst = Math.max(...delays.map((d) => d.ms));
  return {
    event,
    delays,
    worst,
    pollMs,
    rendered,
    check: {
      label:
        a === b
          ? `a staff change visible on the booking page within 1 s (one process, worst of ${runs})`
          : `a staff change on process ${a.name} visible on process ${b.name} within 1 s (worst of ${runs})`,
      ok: worst < 1000,
      value: Number.isFinite(worst) ? `${worst.toFixed(0)} ms` : `not seen within ${limitMs} ms`,
    },
  };
}

export function visibilityLines(result, a, b) {
  const ms = (value) => (Number.isFinite(value) ? value.toFixed(0) : '∞');
  const each = (key) => result.delays.map((d) => ms(d[key])).join(', ');
  return [
    `cross-process: the demo event renamed on ${a.name} (${a.url}) through the admin form; on ${b.name} (${b.url}) ` +
      `polled every ${result.pollMs} ms: /api/v1/booking?e=${result.event.e}&authhash=demo` +
      (result.rendered
        ? ' and the /booking HTML (server-rendered header)'
        : ' (the /booking HTML holds no event name)'),
    `  seen on ${b.name} after ${a.name} answered the save: API ${each('api')} ms` +
      (result.rendered ? `; HTML ${each('html')} ms` : '') +
      `; worst ${Number.isFinite(result.worst) ? `${result.worst.toFixed(0)} ms` : 'never'}` +
      ` (polls until seen: ${result.delays.map((d) => d.polls).join(', ')}; 1 = the first answer after the save)`,
  ];
}
