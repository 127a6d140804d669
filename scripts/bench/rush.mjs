// The booking rush: many parents, each signed in, check out at the same moment for the few places
// of one session-date. Checkout must hold exactly the places there are, answer everyone quickly,
// and never fail with a 5xx.
import { createHash, randomBytes } from 'node:crypto';
import { benchCompany, eventCode } from './scenarios.mjs';

const sha256 = (value) => createHash('sha256').update(value).digest('hex');
const addDays = (date, days) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A one-day event with one session of `places` places in the third company, and `parents` new
 * parents of that company with a session token each (stored as SHA-256, as sign-in stores it;
 * see apps/server/src/testing/factories.ts sessionFor).
 */
export async function prepareRush(client, data, { parents, places }) {
  const company = benchCompany(data, 3);
  const date = addDays(data.monday, 21);
  await client.query('begin');
  const {
    rows: [event],
  } = await client.query(
    `insert into events (company_id, name, start_date, end_date, published)
     values ($1, 'Sold-out Ninja Day', $2, $2, true) returning id`,
    [company.id, date],
  );
  const {
    rows: [session],
  } = await client.query(
    `insert into event_sessions (company_id, event_id, name, start_date, end_date, start_time, end_time,
                                 days_of_week, capacity)
     values ($1, $2, 'Ninja session', $3, $3, '10:00', '13:00', '{1,2,3,4,5,6,7}', $4) returning id`,
    [company.id, event.id, date, places],
  );
  await client.query(
    `insert into event_tickets (company_id, event_id, session_id, name, price) values ($1, $2, null, 'Day', 4500)`,
    [company.id, event.id],
  );
  const tokens = Array.from({ length: parents }, () => randomBytes(32).toString('base64url'));
  await client.query(
    `with p as (
       insert into users (company_id, role, email, full_name, password_hash, status)
       select $1, 'student', 'rush' || i || '@bench.test', 'Rush Parent ' || i, 'x', 'active'
       from generate_series(1, $2::int) i
       returning id, email)
     insert into auth_sessions (company_id, user_id, token_hash, expires_at)
     select $1, p.id, t.hash, now() + interval '2 hours'
     from p join unnest($3::text[]) with ordinality t(hash, i) on p.email = 'rush' || t.i || '@bench.test'`,
    [company.id, parents, tokens.map(sha256)],
  );
  await client.query('commit');
  const cell = `${event.id}|${session.id}|${date}`;
  return { company, eventId: event.id, sessionId: session.id, date, cell, tokens, places };
}

/** The total a one-child, one-day order costs, as the server prices it (ticket, insurance, surcharge). */
async function priceOf(url, rush) {
  const query = new URLSearchParams({
    authhash: rush.company.authhash,
    type_of_registration: 'event',
    event_id: String(rush.eventId),
    quantity: '1',
    booked: rush.cell,
    'students[0][insurance_type]': 'daily_insurance',
  });
  const response = await fetch(`${url}/api/v1/calculate-charges-summary?${query}`);
  if (!response.ok) throw new Error(`pricing the rush failed: ${response.status} ${await response.text()}`);
  return (await response.json()).pricing_details.total.value;
}

/** The driver job: every parent sends the same order (a new child, daily insurance) at once. */
export async function rushJob(url, rush) {
  const order = {
    event_id: rush.eventId,
    quantity: 1,
    booked: [rush.cell],
    waiting: [],
    children: [
      { first_name: 'Rush', last_name: 'Child', dob: '2017-06-01', insurance_type: 'daily_insurance' },
    ],
    amount: await priceOf(url, rush),
    accept_terms: true,
  };
  // Make sure the order is valid before 500 of it go out: check it against the /booking page's e.
  const page = await fetch(
    `${url}/api/v1/booking?e=${eventCode(rush.company.id, rush.eventId)}&authhash=${rush.company.authhash}`,
  );
  if (!page.ok) throw new Error(`the rush event is not bookable: ${page.status} ${await page.text()}`);
  return {
    url,
    connections: rush.tokens.length,
    amount: rush.tokens.length,
    warmup: 0,
    timeout: 30,
    tokens: rush.tokens,
    expect: [200, 409],
    requests: [
      { method: 'POST', path: `/api/v1/booking/checkout?authhash=${rush.company.authhash}`, body: order },
    ],
  };
}

/** Places held or confirmed on the rushed session-date, counted in the database. */
export async function placesTaken(client, rush) {
  const { rows } = await client.query(
    `select coalesce(sum(bp.places), 0)::int as places, count(distinct b.id)::int as bookings
     from booking_places bp join bookings b on b.id = bp.booking_id
     where bp.session_id = $1 and bp.date = $2
       and (b.status = 'confirmed' or (b.status = 'pending' and b.hold_expires_at > now()))`,
    [rush.sessionId, rush.date],
  );
  return rows[0];
}

/**
 * The rush's verdicts: exactly `places` held, nothing oversold, no 5xx, all answered within 5 s;
 * with several processes (`spread`: the proxy's answers per process), every process answered part
 * of it, so the count in the database is what held the places across processes.
 */
export function judgeRush(rush, result, taken, spread = null) {
  const count = (predicate) =>
    Object.entries(result.statuses)
      .filter(([code]) => predicate(Number(code)))
      .reduce((sum, [, n]) => sum + n, 0);
  const held = count((code) => code === 200);
  const serverErrors = count((code) => code >= 500);
  const answered = count(() => true);
  const notOversold = {
    label: `places taken in the database ≤ ${rush.places} (not oversold)`,
    ok: taken.places <= rush.places,
    value: taken.places,
  };
  const allHeld = {
    label: `exactly ${rush.places} checkouts held a place`,
    ok: held === rush.places,
    value: held,
  };
  const no5xx = { label: 'no 5xx answers', ok: serverErrors === 0, value: serverErrors };
  const within5s = {
    label: `all ${rush.tokens.length} answered, none later than 5 s`,
    ok: answered === rush.tokens.length && result.errors === 0 && result.max <= 5000,
    value: `${answered} answered, slowest ${Math.round(result.max)} ms`,
  };
  const acrossProcesses = spread && {
    label: `every process answered checkouts (${spread.length} processes)`,
    ok: spread.every((s) => s.total > 0),
    value: spread.map((s) => `${s.name} ${s.statuses[200] ?? 0} held of ${s.total}`).join(', '),
  };
  return {
    held,
    holdsPerSecond: held / result.seconds,
    notOversold,
    no5xx,
    within5s,
    checks: [notOversold, allHeld, no5xx, within5s, ...(acrossProcesses ? [acrossProcesses] : [])],
  };
}
