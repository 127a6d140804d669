// The re-enrolment section (issue 14): one company with 3,000 children enrolled in 300 classes of a
// running term, and the next term with the same 300 classes and their sessions. The bench times
// what staff do on the Roll over screen: the dry run, then the commit polled until its progress is
// done (every place held in a locking batch, one mail per family), then the commit again (nothing to
// hold). Loaded in bulk SQL like classes.mjs; the size is the figure, whatever --scale says.
import { signIn } from './scenarios.mjs';

export const ROLLOVER_SIZES = { children: 3000, parents: 2000, classes: 300 };
const AUTHHASH = 'bench-rollover';
const ADMIN = 'admin@bench-rollover.test';
const TARGET_SECONDS = 60;

const addDays = (date, days) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Term A ran from six weeks before `monday`'s week for ten weeks; term B starts two weeks after it,
 * ten weeks long. Class i (0 … 299) meets on weekday 1 + i mod 6 at 15:00 + (i / 6) mod 10 hours… in
 * both terms; child j is in class j mod 300 of term A (ten a class, capacity 12).
 */
function statements(c, monday) {
  const startA = addDays(monday, -6 * 7);
  const endA = addDays(startA, 69);
  const startB = addDays(endA, 17);
  const endB = addDays(startB, 69);
  return [
    [
      'staff, parents, children',
      `with hash as (select password_hash as h from users where email = 'admin@demo.test'),
       u as (
         insert into users (company_id, role, email, full_name, password_hash, status)
         select ${c}, 'companyadmin', '${ADMIN}', 'Rollover Admin', hash.h, 'active' from hash
         union all
         select ${c}, 'student', 'parent' || p || '@bench-rollover.test', 'Family ' || p, hash.h, 'active'
         from generate_series(1, ${ROLLOVER_SIZES.parents}) p, hash
         returning id, email)
       insert into children (company_id, parent_id, first_name, last_name, dob)
       select ${c}, u.id, (array['Noah','Ava','Oliver','Mia','Leo','Isla'])[1 + (p + k) % 6], 'Family' || p,
              date '2016-01-01' + (p * 37 + k * 101) % 1500
       from generate_series(1, ${ROLLOVER_SIZES.parents}) p
       join u on u.email = 'parent' || p || '@bench-rollover.test'
       cross join lateral generate_series(1, case when p % 2 = 0 then 2 else 1 end) k`,
    ],
    [
      'terms, class types, classes',
      `with t as (
         insert into terms (company_id, name, start_date, end_date, status)
         values (${c}, 'Term A', date '${startA}', date '${endA}', 'open'),
                (${c}, 'Term B', date '${startB}', date '${endB}', 'open')
         returning id),
       ty as (
         insert into class_types (company_id, name, age_min_months, age_max_months, capacity_default, price)
         values (${c}, 'Kinder Gym', 24, 200, 12, 2200), (${c}, 'Recreational Gymnastics', 24, 200, 12, 2500),
                (${c}, 'Ninja Kids', 24, 200, 12, 2500)
         returning id),
       tyn as (select id, row_number() over (order by id) - 1 as n from ty)
       insert into term_classes (company_id, term_id, class_type_id, name, weekday, start_time, duration_minutes,
                                 capacity, status)
       select ${c}, t.id, tyn.id, 'Class ' || i, 1 + i % 6, time '08:00' + ((i / 6) % 10) * interval '1 hour',
              45, 12, 'active'
       from t cross join generate_series(0, ${ROLLOVER_SIZES.classes} - 1) i join tyn on tyn.n = (i / 60) % 3`,
    ],
    [
      'sessions of both terms',
      `insert into class_sessions (company_id, term_class_id, slot_date, date, start_time, duration_minutes)
       select ${c}, tc.id, d::date, d::date, tc.start_time, tc.duration_minutes
       from term_classes tc join terms t on t.id = tc.term_id
       cross join lateral generate_series(t.start_date, t.end_date, interval '1 day') d
       where tc.company_id = ${c} and extract(isodow from d) = tc.weekday`,
    ],
    [
      'enrolments of term A',
      `with ch as (select id, row_number() over (order by id) - 1 as j from children where company_id = ${c}),
       tc as (select tc.id, row_number() over (order by tc.id) - 1 as i
              from term_classes tc join terms t on t.id = tc.term_id
              where tc.company_id = ${c} and t.name = 'Term A')
       insert into class_enrolments (company_id, term_class_id, child_id, kind, status, starts_on)
       select ${c}, tc.id, ch.id, 'enrolled', 'active', date '${startA}'
       from ch join tc on tc.i = ch.j % ${ROLLOVER_SIZES.classes}`,
    ],
  ].map(([label, sql]) => [label, sql, startB]);
}

/** Loads the rollover company; returns its terms and what was loaded. */
export async function loadRollover(client, monday, log = () => {}) {
  const started = performance.now();
  await client.query('begin');
  const {
    rows: [company],
  } = await client.query(
    `insert into companies (name, authhash, time_zone, currency, payment_method, status, email)
     values ('Bench Rollover', $1, 'Australia/Sydney', 'AUD', 'test', 'active', 'hello@bench-rollover.test')
     returning id`,
    [AUTHHASH],
  );
  let startB = '';
  for (const [label, sql, b] of statements(Number(company.id), monday)) {
    const t0 = performance.now();
    await client.query(sql);
    startB = b;
    log(`  ${label.padEnd(36)} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await client.query('commit');
  await client.query('vacuum (analyze)');
  const { rows: terms } = await client.query(
    'select id, name from terms where company_id = $1 order by start_date',
    [company.id],
  );
  const {
    rows: [enrolments],
  } = await client.query(`select count(*)::int as n from class_enrolments where company_id = $1`, [
    company.id,
  ]);
  return {
    companyId: company.id,
    from: terms[0],
    to: terms[1],
    deadline: addDays(startB, -3),
    enrolments: enrolments.n,
    loadSeconds: (performance.now() - started) / 1000,
  };
}

async function call(url, method, path, token, body) {
  const t0 = performance.now();
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return { seconds: (performance.now() - t0) / 1000, result: JSON.parse(text) };
}

/** Commits and polls the run (as the screen does) until it is done; the time from the click to done. */
async function commitUntilDone(url, token, loaded, request) {
  const t0 = performance.now();
  const { result: started } = await call(
    url,
    'POST',
    `/api/v1/admin/terms/${loaded.from.id}/rollovers`,
    token,
    request,
  );
  let polls = 0;
  for (;;) {
    const { result: run } = await call(url, 'GET', `/api/v1/admin/rollovers/${started.id}`, token);
    polls++;
    if (run.status !== 'running') return { run, polls, seconds: (performance.now() - t0) / 1000 };
    if (performance.now() - t0 > 10 * 60_000) throw new Error('the rollover did not finish in 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The dry run, the commit and the commit again; checks the database holds what the run says. */
export async function runRollover(url, client, loaded) {
  const token = await signIn(url, ADMIN, 'demo-admin-1');
  const request = { to_term_id: loaded.to.id, deadline_date: loaded.deadline, deadline_time: '18:00' };
  const preview = await call(
    url,
    'POST',
    `/api/v1/admin/terms/${loaded.from.id}/rollovers/preview`,
    token,
    request,
  );
  const commit = await commitUntilDone(url, token, loaded, request);
  const again = await commitUntilDone(url, token, loaded, request);
  const {
    rows: [stored],
  } = await client.query(
    `select (select count(*)::int from class_enrolments
             where company_id = $1 and held_for = 'rollover' and status = 'pending') as held,
            (select count(*)::int from mail_outbox where company_id = $1 and kind = 're-enrolment') as mails`,
    [loaded.companyId],
  );
  if (stored.held !== preview.result.totals.hold || commit.run.items.length !== stored.held)
    throw new Error(
      `rollover: the dry run promised ${preview.result.totals.hold} places, the run lists ${commit.run.items.length}, the database holds ${stored.held}`,
    );
  if (again.run.items.length !== stored.held) throw new Error('rollover: committing again changed the run');
  return {
    preview: { seconds: preview.seconds, ...preview.result.totals },
    commit: { seconds: commit.seconds, held: stored.held, mails: stored.mails, polls: commit.polls },
    again: { seconds: again.seconds, held: again.run.items.length },
  };
}

/** The printed lines and the verdict. */
export function rolloverLines(loaded, r) {
  const ok = r.commit.seconds < TARGET_SECONDS && r.commit.held === loaded.enrolments;
  return {
    checks: [
      {
        ok,
        label: `rollover of ${loaded.enrolments.toLocaleString('en-AU')} enrolments < ${TARGET_SECONDS} s`,
        value: `${r.commit.seconds.toFixed(2)} s, ${r.commit.held} held`,
      },
    ],
    lines: [
      `rollover: 1 company, ${loaded.enrolments} enrolments in ${ROLLOVER_SIZES.classes} classes of ${loaded.from.name}, ` +
        `${ROLLOVER_SIZES.parents} families (loaded in ${loaded.loadSeconds.toFixed(1)} s)`,
      `  dry run (POST /api/v1/admin/terms/:id/rollovers/preview): ${r.preview.hold} to hold, ` +
        `${r.preview.conflicts} conflicts in ${r.preview.seconds.toFixed(2)} s`,
      `  commit (POST …/rollovers, polled until done): ${r.commit.held} places held, ${r.commit.mails} family mails ` +
        `in ${r.commit.seconds.toFixed(2)} s`,
      `  commit again (nothing to hold): ${r.again.held} places, none new, in ${r.again.seconds.toFixed(2)} s`,
    ],
  };
}
