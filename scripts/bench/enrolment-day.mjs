// Enrolment day (issue 14): a term's public enrolment opens and 1,000 parents arrive at once for the
// 300 places of 30 classes. Each parent, as the registration page's waiting room does, asks whether
// the form is queued and takes a queue ticket, waits (polling its place) until it is let in, then checks out one full enrolment through
// POST /api/v1/registration/checkout and pays with the test card. Targets: nothing oversold, no 5xx,
// every answer within 5 s. Its own company, loaded with bulk SQL like classes.mjs.
import { createHash, randomBytes } from 'node:crypto';

export const DAY_SIZES = { parents: 1000, classes: 30, capacity: 10 };
const AUTHHASH = 'bench-enrolment-day';
const FORM = 'enrolment-day';
/** Seconds from loading to the opening: every parent has its ticket before the doors open. */
const OPENS_IN_SECONDS = 25;
const TARGET_MS = 5000;
const CARD = '4242424242424242';

const sha256 = (value) => createHash('sha256').update(value).digest('hex');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The company, its term (public enrolment opening in OPENS_IN_SECONDS), 30 classes of 10 places with
 * ten weekly sessions each, a published registration form, and `parents` parents with one child and
 * a session token each (stored as SHA-256, as sign-in stores it).
 */
export async function prepareEnrolmentDay(client, { parents = DAY_SIZES.parents } = {}) {
  const started = performance.now();
  await client.query('begin');
  const {
    rows: [company],
  } = await client.query(
    `insert into companies (name, authhash, time_zone, currency, payment_method, status, email, phone)
     values ('Bench Enrolment Day', $1, 'Australia/Sydney', 'AUD', 'test', 'active', 'hello@bench-day.test',
             '02 9000 8888') returning id`,
    [AUTHHASH],
  );
  const c = company.id;
  const {
    rows: [term],
  } = await client.query(
    `with ty as (
       insert into class_types (company_id, name, level, default_duration_minutes, capacity_default,
                                pricing_model, price)
       values ($1, 'Recreational Gymnastics', 'Level 1', 45, $2, 'term', 21000) returning id),
     t as (
       insert into terms (company_id, name, start_date, end_date, status, public_enrolment_opens_at)
       values ($1, 'Enrolment Day Term', current_date + 14, current_date + 14 + 69, 'open',
               now() + make_interval(secs => $3)) returning id, start_date, end_date, public_enrolment_opens_at),
     tc as (
       insert into term_classes (company_id, term_id, class_type_id, name, weekday, start_time, duration_minutes,
                                 capacity, status)
       select $1, t.id, ty.id, 'Level 1 class ' || (i + 1), 1 + i % 6, time '15:30' + (i / 6) * interval '1 hour',
              45, $2, 'active'
       from t, ty, generate_series(0, $4::int - 1) i
       returning id, weekday, start_time, duration_minutes, term_id),
     s as (
       insert into class_sessions (company_id, term_class_id, slot_date, date, start_time, duration_minutes)
       select $1, tc.id, d::date, d::date, tc.start_time, tc.duration_minutes
       from tc join t on t.id = tc.term_id
       cross join lateral generate_series(t.start_date, t.end_date, interval '1 day') d
       where extract(isodow from d) = tc.weekday)
     insert into registration_forms (company_id, key, name, term_ids, published)
     select $1, $5, 'Enrolment day', array[t.id], true from t
     returning (select id from t) as term_id, (select public_enrolment_opens_at from t) as opens_at`,
    [c, DAY_SIZES.capacity, OPENS_IN_SECONDS, DAY_SIZES.classes, FORM],
  );
  const tokens = Array.from({ length: parents }, () => randomBytes(32).toString('base64url'));
  const { rows: family } = await client.query(
    `with p as (
       insert into users (company_id, role, email, full_name, password_hash, status)
       select $1, 'student', 'day' || i || '@bench-day.test', 'Day Parent ' || i, 'x', 'active'
       from generate_series(1, $2::int) i
       returning id, email),
     a as (
       insert into auth_sessions (company_id, user_id, token_hash, expires_at)
       select $1, p.id, t.hash, now() + interval '2 hours'
       from p join unnest($3::text[]) with ordinality t(hash, i) on p.email = 'day' || t.i || '@bench-day.test')
     insert into children (company_id, parent_id, first_name, last_name, dob, consent)
     select $1, p.id, 'Child', 'Day' || substring(p.email from '[0-9]+'), date '2018-05-01', true from p
     returning id, (select substring(email from '[0-9]+') from p where p.id = parent_id)::int as i`,
    [c, parents, tokens.map(sha256)],
  );
  await client.query('commit');
  const { rows: classes } = await client.query(
    'select id from term_classes where company_id = $1 order by id',
    [c],
  );
  const childOf = new Map(family.map((r) => [r.i, r.id]));
  return {
    companyId: c,
    termId: term.term_id,
    opensAt: new Date(term.opens_at),
    classIds: classes.map((r) => r.id),
    parents: tokens.map((token, k) => ({ token, childId: childOf.get(k + 1) })),
    loadSeconds: (performance.now() - started) / 1000,
  };
}

/** Every HTTP answer of the run: its status and how long the parent waited for it. */
function recorder() {
  const answers = [];
  return {
    answers,
    async call(url, init, label) {
      const t0 = performance.now();
      let status = 0;
      let body = null;
      try {
        const response = await fetch(url, init);
        status = response.status;
        body = await response.json().catch(() => null);
      } catch (error) {
        body = { message: String(error?.cause?.code ?? error) };
      }
      answers.push({ label, status, ms: performance.now() - t0 });
      return { status, body };
    },
  };
}

/**
 * Drives the day: all parents take a ticket at once, each waits for its turn as the page does, then
 * quotes (one price per class, shared: the classes cost the same) and checks out its class (parent
 * k wants class k mod 30), and pays. A refusal is the 409 the page explains (class full).
 */
export async function runEnrolmentDay(url, day) {
  const { answers, call } = recorder();
  const json = (token, body) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const quotes = new Map();
  const outcome = { ticket: 0, admitted: 0, enrolled: 0, refused: 0, failed: 0, messages: new Map() };
  const note = (message) => outcome.messages.set(message, (outcome.messages.get(message) ?? 0) + 1);
  const times = [];

  async function parent(p, k) {
    // The page asks whether the form is queued, then takes a ticket.
    const status = await call(
      `${url}/api/v1/registration/queue?f=${FORM}&authhash=${AUTHHASH}`,
      undefined,
      'status',
    );
    if (status.status !== 200 || !status.body.queued)
      return void note(`status ${status.status}: ${status.body?.message ?? 'not queued'}`);
    const taken = await call(
      `${url}/api/v1/registration/queue?authhash=${AUTHHASH}`,
      json(null, { form: FORM }),
      'ticket',
    );
    if (taken.status !== 200) return void note(`ticket ${taken.status}: ${taken.body?.message}`);
    outcome.ticket++;
    let ticket = taken.body;
    // As the waiting room polls: when the ticket's turn comes (spread over half a second), and every
    // half minute meanwhile; a busy answer is asked again after a few seconds, as the page does.
    while (!ticket.admitted) {
      const untilTurn = Date.parse(ticket.admit_at) - Date.parse(ticket.now);
      await sleep(Math.min(untilTurn + Math.random() * 500, 30_000 + Math.random() * 5000));
      let polled = await call(
        `${url}/api/v1/registration/queue/${ticket.token}?authhash=${AUTHHASH}`,
        undefined,
        'poll',
      );
      while (polled.status >= 500 || polled.status === 0) {
        await sleep(3000 + Math.random() * 1000);
        polled = await call(
          `${url}/api/v1/registration/queue/${ticket.token}?authhash=${AUTHHASH}`,
          undefined,
          'poll',
        );
      }
      if (polled.status !== 200) return void note(`poll ${polled.status}: ${polled.body?.message}`);
      ticket = polled.body;
    }
    outcome.admitted++;
    const letIn = performance.now();
    const classId = day.classIds[k % day.classIds.length];
    const selection = {
      f: FORM,
      children: [{ id: p.childId }],
      choices: [{ child: 0, term_class_id: classId, kind: 'enrolled' }],
      answers: [],
      queue_token: ticket.token,
    };
    if (!quotes.has(classId))
      quotes.set(
        classId,
        call(`${url}/api/v1/registration/quote?authhash=${AUTHHASH}`, json(p.token, selection), 'quote'),
      );
    const quote = await quotes.get(classId);
    if (quote.status !== 200) {
      quotes.delete(classId);
      return void note(`quote ${quote.status}: ${quote.body?.message}`);
    }
    const checkout = await call(
      `${url}/api/v1/registration/checkout?authhash=${AUTHHASH}`,
      json(p.token, { ...selection, accept_terms: true, amount: quote.body.amount_due }),
      'checkout',
    );
    // From being let in to the checkout's answer (a place held, or the class full).
    times.push(performance.now() - letIn);
    if (checkout.status === 409) {
      outcome.refused++;
      return void note(`checkout 409: ${checkout.body?.message}`);
    }
    if (checkout.status !== 200 || !checkout.body?.valid) {
      outcome.failed++;
      return void note(`checkout ${checkout.status}: ${checkout.body?.message}`);
    }
    if (checkout.body.method !== 'test' || !checkout.body.sessionId) {
      outcome.enrolled++; // nothing to pay (a free class)
      return;
    }
    const paid = await call(
      `${url}/integrations/test/pay`,
      json(null, { session: checkout.body.sessionId, card_number: CARD }),
      'pay',
    );
    if (paid.status === 200) outcome.enrolled++;
    else {
      outcome.failed++;
      note(`pay ${paid.status}: ${paid.body?.message}`);
    }
  }

  const started = performance.now();
  await Promise.all(day.parents.map((p, k) => parent(p, k)));
  return { answers, outcome, seconds: (performance.now() - started) / 1000, journeys: times };
}

/** Places taken (active, or pending with a live hold) per class against its capacity, in SQL. */
export async function placesByClass(client, day) {
  const { rows } = await client.query(
    `select tc.id, tc.capacity,
            count(e.id) filter (where e.status = 'active'
                                   or (e.status = 'pending' and (e.hold_expires_at is null or e.hold_expires_at > now())))::int as taken,
            count(e.id) filter (where e.status = 'active')::int as active
     from term_classes tc left join class_enrolments e on e.term_class_id = tc.id and e.kind = 'enrolled'
     where tc.company_id = $1 group by tc.id order by tc.id`,
    [day.companyId],
  );
  return rows;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/** The verdicts and the printed lines. */
export function judgeEnrolmentDay(day, run, places) {
  const oversold = places.filter((r) => r.taken > r.capacity).length;
  const serverErrors = run.answers.filter((a) => a.status >= 500 || a.status === 0);
  const slowest = Math.max(0, ...run.answers.map((a) => a.ms));
  const slowestBy = run.answers.reduce((a, b) => (b.ms > (a?.ms ?? -1) ? b : a), null);
  const taken = places.reduce((sum, r) => sum + r.taken, 0);
  const active = places.reduce((sum, r) => sum + r.active, 0);
  const capacity = places.reduce((sum, r) => sum + r.capacity, 0);
  const checks = [
    {
      label: 'classes oversold (places taken > capacity, counted in SQL)',
      ok: oversold === 0,
      value: oversold,
    },
    {
      label: 'no 5xx (nor a request that got no answer)',
      ok: serverErrors.length === 0,
      value: serverErrors.length,
    },
    {
      label: `every answer within ${TARGET_MS / 1000} s`,
      ok: slowest <= TARGET_MS,
      value: `slowest ${Math.round(slowest)} ms (${slowestBy?.label ?? '-'})`,
    },
  ];
  const byLabel = {};
  for (const a of run.answers) {
    byLabel[a.label] = byLabel[a.label] ?? [];
    byLabel[a.label].push(a.ms);
  }
  const lines = [
    `enrolment day: ${day.parents.length} parents, ${day.classIds.length} classes × ${DAY_SIZES.capacity} places (${capacity}), run ${run.seconds.toFixed(1)} s`,
    `  tickets ${run.outcome.ticket}, admitted ${run.outcome.admitted}, enrolled and paid ${run.outcome.enrolled}, refused (409) ${run.outcome.refused}, failed ${run.outcome.failed}`,
    `  places in SQL: ${taken} taken (${active} active) of ${capacity}`,
    `  let in → checkout answered: max ${Math.round(Math.max(0, ...run.journeys))} ms`,
    ...Object.entries(byLabel).map(([label, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return `  ${label.padEnd(9)} ${String(sorted.length).padStart(5)} answers, p50 ${Math.round(percentile(sorted, 50))} ms, p99 ${Math.round(percentile(sorted, 99))} ms, max ${Math.round(sorted.at(-1) ?? 0)} ms`;
    }),
    `  statuses: ${JSON.stringify(Object.fromEntries(countBy(run.answers.map((a) => a.status))))}`,
    ...[...run.outcome.messages].map(([message, n]) => `  ${n} × ${message}`),
  ];
  return { checks, lines };
}

function countBy(values) {
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}
