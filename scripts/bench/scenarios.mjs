// The load scenarios: what parents and staff wait for, against rows of the loaded dataset. Each
// scenario is checked with one request before it is measured, so a wrong URL fails loudly instead
// of measuring error pages.
import { fork } from 'node:child_process';
import path from 'node:path';
import { PER_COMPANY, SESSIONS_PER_EVENT } from './dataset.mjs';

/** Concurrent connections of the staff scenarios (see docs/performance.md). */
export const ADMIN_CONNECTIONS = 10;

const hex = (text) => Buffer.from(text).toString('hex');
export const eventCode = (companyId, eventId) => hex(`${companyId}|${eventId}`);
const addDays = (date, days) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Ids of the n-th company's rows (1-based), computed as dataset.mjs wrote them. */
export function benchCompany(data, n) {
  return { id: data.base.companies + n, authhash: `bench-${n}`, admin: `admin@bench-${n}.test` };
}

/** The e-th event (0-based) of the n-th company, with its k-th session. */
function benchEvent(data, companyNumber, e) {
  const global = (companyNumber - 1) * PER_COMPANY.events + e + 1;
  const id = data.base.events + global;
  const sessionId = (k) => data.base.event_sessions + (global - 1) * SESSIONS_PER_EVENT + k + 1;
  return { id, sessionId, start: addDays(data.monday, (e - 3) * 7) };
}

export async function signIn(url, username, password) {
  const response = await fetch(`${url}/rest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok)
    throw new Error(`sign-in of ${username} failed: ${response.status} ${await response.text()}`);
  return response.headers.get('x-auth-token');
}

async function fullInsuranceOf(client, companyId) {
  const { rows } = await client.query(
    `select id from insurances where company_id = $1 and kind = 'full' order by id limit 1`,
    [companyId],
  );
  return rows[0].id;
}

/** A reference fragment that finds a handful of the big event's bookings (a staff member typing part of one). */
async function searchFragment(client, eventId) {
  const { rows } = await client.query(
    `select substr(reference, 3, 5) as q from bookings where event_id = $1 order by id limit 1
     offset (select count(*) / 2 from bookings where event_id = $1)`,
    [eventId],
  );
  return rows[0].q;
}

/**
 * The scenarios in table order. The first is the baseline: the cheapest answer the API gives,
 * with no database (GET /api/health runs `select 1`, so it is not one).
 */
export async function defineScenarios({ url, client, data }) {
  const shop = benchCompany(data, 2);
  const camp = benchEvent(data, 2, 5); // two weeks after the base Monday: every day still bookable
  const e = eventCode(shop.id, camp.id);
  const cells = [camp.sessionId(0), camp.sessionId(1)].map((s) => `${camp.id}|${s}|${camp.start}`);
  const full = await fullInsuranceOf(client, shop.id);
  const charges =
    `/api/v1/calculate-charges-summary?authhash=${shop.authhash}&type_of_registration=event&event_id=${camp.id}` +
    `&quantity=2&${cells.map((c) => `booked=${encodeURIComponent(c)}`).join('&')}&coupon_code=BENCH10` +
    '&students[0][insurance_type]=daily_insurance&students[1][insurance_type]=full_insurance' +
    `&students[1][insurance_ids][]=${full}`;
  const partyYear = Number(addDays(data.monday, 30).slice(0, 4));

  const demoAdmin = { authorization: `Bearer ${await signIn(url, 'admin@demo.test', 'demo-admin-1')}` };
  const big = benchCompany(data, 1);
  const bigAdmin = { authorization: `Bearer ${await signIn(url, big.admin, 'demo-admin-1')}` };
  const bigEvent = data.base.events + 1;
  const list = `/api/v1/admin/events/${bigEvent}/bookings`;
  const q = await searchFragment(client, bigEvent);
  const status = encodeURIComponent(JSON.stringify({ status: 'confirmed' }));
  const paid = encodeURIComponent(JSON.stringify({ status: 'paid', provider: 'test' }));

  return [
    {
      name: 'no-db baseline',
      requests: [{ path: '/api/v1/bench-no-such-route' }],
      expect: [404],
      baseline: true,
    },
    {
      name: 'booking page',
      group: 'public',
      requests: [{ path: `/api/v1/booking?e=${e}&authhash=${shop.authhash}` }],
    },
    {
      name: 'booking sessions',
      group: 'public',
      requests: [{ path: `/api/v1/booking/sessions?e=${e}&authhash=${shop.authhash}` }],
    },
    { name: 'charges summary', group: 'public', requests: [{ path: charges }] },
    {
      name: 'party calendar',
      group: 'public',
      requests: [
        { path: `/api/v1/birthday-party/booking/load-calendar?authhash=${shop.authhash}&year=${partyYear}` },
      ],
    },
    {
      name: 'party slot-capacity',
      group: 'public',
      requests: [
        {
          path: `/api/v1/birthday-party/booking/slot-capacity?authhash=${shop.authhash}&date=${addDays(data.monday, -2)}`,
        },
      ],
    },
    { name: 'acl (staff)', requests: [{ path: '/rest/acl', headers: demoAdmin }] },
    {
      name: 'admin bookings list',
      group: 'admin',
      // Staff screens: a company's whole office clicking at once, not a hundred parents.
      connections: ADMIN_CONNECTIONS,
      // Each connection cycles through the list screen's four uses: the first page (newest first),
      // a page far back, the confirmed ones sorted by total, and a search for part of a reference.
      requests: [
        { path: `${list}?page=1&perPage=25&sort=created_at&order=desc`, headers: bigAdmin },
        { path: `${list}?page=200&perPage=25&sort=created_at&order=asc`, headers: bigAdmin },
        { path: `${list}?page=1&perPage=25&sort=total&order=desc&filter=${status}`, headers: bigAdmin },
        { path: `${list}?page=1&perPage=25&q=${q}`, headers: bigAdmin },
      ],
    },
    {
      name: 'admin payments list',
      group: 'admin',
      connections: ADMIN_CONNECTIONS,
      // The company's payments: the first page (newest first) and the paid ones, page 2.
      requests: [
        { path: '/api/v1/admin/payments?page=1&perPage=25', headers: bigAdmin },
        { path: `/api/v1/admin/payments?page=2&perPage=25&filter=${paid}`, headers: bigAdmin },
      ],
    },
  ];
}

/** One request of each of the scenario's shapes; throws with the answer when one is unexpected. */
export async function checkScenario(url, scenario) {
  for (const request of scenario.requests) {
    const response = await fetch(`${url}${request.path}`, { headers: request.headers });
    const expected = scenario.expect ?? [200];
    if (!expected.includes(response.status)) {
      throw new Error(
        `${scenario.name}: ${request.path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
      );
    }
  }
}

/** Runs a job in a forked driver process and resolves with its figures. */
export function drive(job) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(import.meta.dirname, 'driver.mjs'), { stdio: 'inherit' });
    let answered = false;
    child.once('message', (message) => {
      answered = true;
      if (message.ok) resolve(message.result);
      else reject(new Error(message.error));
    });
    child.once('exit', (code) => {
      if (!answered) reject(new Error(`the load driver exited with ${code} before answering`));
    });
    child.send(job);
  });
}
