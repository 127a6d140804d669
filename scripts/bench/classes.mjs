// The class-scale section (issue 13): one company with 3,000 children in 300 weekly classes taught by
// 30 coaches over two terms. Loaded like dataset.mjs (bulk SQL from generate_series, no randomness);
// then the bench times the real generation of the second term's sessions (the HTTP call staff make)
// and drives one session's roll like the other scenarios. The size is fixed, whatever --scale says:
// it is the figure and loads in about a second.
import { ADMIN_CONNECTIONS, signIn } from './scenarios.mjs';

export const CLASS_SIZES = { children: 3000, parents: 2000, classes: 300, coaches: 30, rooms: 10, terms: 2 };
/** Children enrolled in each class (every child in one class a term). */
export const PER_CLASS = CLASS_SIZES.children / CLASS_SIZES.classes;
const AUTHHASH = 'bench-classes';
const ADMIN = 'admin@bench-classes.test';
const TERM_WEEKS = 10;

const addDays = (date, days) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The weekly timetable as SQL over class number i (0 … 299): 30 time slots (Monday to Friday at
 * 15:30, 16:30, 17:30 and 18:30; Saturday hourly from 08:00 to 17:00), ten classes at a time, one per
 * room. Coach (slot + 3 × room) mod 30 takes each: ten different coaches in a slot, ten classes per
 * coach, so the generator finds no room or coach booked twice, as in a real timetable.
 */
const slot = (i) => `(${i}) % 30`;
const room = (i) => `(${i}) / 30`;
const weekday = (i) => `case when ${slot(i)} < 20 then 1 + ${slot(i)} / 4 else 6 end`;
const startTime = (i) =>
  `case when ${slot(i)} < 20 then time '15:30' + (${slot(i)} % 4) * interval '1 hour'
        else time '08:00' + (${slot(i)} - 20) * interval '1 hour' end`;
const coachOf = (i) => `(${slot(i)} + 3 * ${room(i)}) % 30`;

/**
 * Term 1 began six weeks before `monday`'s week (so it runs now, with sessions generated and rolls
 * marked up to yesterday); term 2 starts two weeks after it ends and has its classes but no sessions
 * yet: the bench generates them. Each term has a closed public-holiday Monday.
 */
function termDates(monday) {
  const start1 = addDays(monday, -8 * 7);
  const end1 = addDays(start1, TERM_WEEKS * 7 - 1);
  const start2 = addDays(end1, 15);
  return [
    { name: 'Term 1', start: start1, end: end1, closure: addDays(start1, 21), status: 'open' },
    {
      name: 'Term 2',
      start: start2,
      end: addDays(start2, TERM_WEEKS * 7 - 1),
      closure: addDays(start2, 14),
      status: 'draft',
    },
  ];
}

function statements(companyId, terms, today) {
  const c = Number(companyId);
  if (!Number.isInteger(c)) throw new Error(`not a company id: ${companyId}`);
  const values = terms
    .map(
      (t, k) =>
        `(${k + 1}, '${t.name}', date '${t.start}', date '${t.end}', date '${t.closure}', '${t.status}')`,
    )
    .join(', ');
  return [
    [
      'venue, rooms, class types',
      `with v as (insert into venues (company_id, name, address, suburb, state, postcode)
                  values (${c}, 'Bench Classes Centre', '1 Main Street', 'Parramatta', 'NSW', '2150') returning id),
       r as (insert into rooms (company_id, venue_id, name, capacity)
             select ${c}, v.id, 'Room ' || n, 12 from v, generate_series(1, ${CLASS_SIZES.rooms}) n),
       rd as (insert into restricted_dates (company_id, date, reason, applies_to, recurring_yearly)
              values (${c}, make_date(extract(year from current_date)::int, 12, 25), 'Christmas Day', 'all', true))
       insert into class_types (company_id, name, level, age_min_months, age_max_months, default_duration_minutes,
                                colour, capacity_default, pricing_model, price, trial_allowed, trial_price,
                                makeup_allowed, makeup_expiry)
       values (${c}, 'Kinder Gym', 'Kinder', 36, 60, 45, '#f59f00', 12, 'per_session', 2200, true, 1000, true, 'end_of_term'),
              (${c}, 'Recreational Gymnastics', 'Level 1', 60, 144, 45, '#1c7ed6', 12, 'term', 21000, true, 1500, true, 'end_of_term'),
              (${c}, 'Ninja Kids', 'Open', 72, 168, 45, '#2f9e44', 12, 'per_session', 2500, false, null, false, null)`,
    ],
    [
      'staff, coaches, parents',
      `with hashes as (
         select (select password_hash from users where email = 'admin@demo.test') as staff,
                (select password_hash from users where email = 'parent@demo.test') as parent),
       u as (
         insert into users (company_id, role, email, full_name, phone, password_hash, status)
         select ${c}, 'companyadmin', '${ADMIN}', 'Classes Admin', null, hashes.staff, 'active' from hashes
         union all
         select ${c}, 'companycoach', 'coach' || n || '@bench-classes.test',
                (array['Casey','Robin','Jesse','Drew','Kai','Quinn'])[1 + n % 6] || ' Coach' || n,
                '04' || lpad((n * 7919)::text, 8, '0'), hashes.staff, 'active'
         from generate_series(1, ${CLASS_SIZES.coaches}) n, hashes
         union all
         select ${c}, 'student', 'parent' || p || '@bench-classes.test',
                (array['Sam','Alex','Jordan','Taylor','Casey','Riley','Morgan','Jamie'])[1 + p % 8] || ' Family' || p,
                '04' || lpad((p * 104729 % 100000000)::text, 8, '0'), hashes.parent, 'active'
         from generate_series(1, ${CLASS_SIZES.parents}) p, hashes
         returning id, role, full_name)
       insert into coaches (company_id, user_id, name, phone, qualifications, wwcc_number, wwcc_verified_on,
                            wwcc_outcome, wwcc_expires_on)
       select ${c}, u.id, u.full_name, null,
              'Gymnastics Australia Foundation coach', 'WWC' || lpad(u.id::text, 7, '0') || 'E',
              current_date - 200, 'cleared', current_date + 1000
       from u where u.role = 'companycoach'`,
    ],
    [
      'children',
      // Half the families have two children: 2,000 parents, 3,000 children.
      `insert into children (company_id, parent_id, first_name, last_name, dob, consent, medical_notes)
       select ${c}, u.id, (array['Noah','Ava','Oliver','Mia','Leo','Isla','Jack','Zoe','Liam','Ruby'])[1 + (p + k * 3) % 10],
              'Family' || p, date '2013-01-01' + (p * 37 + k * 101) % 3000, p % 3 <> 0,
              case when p % 7 = 0 then 'Asthma: puffer in the bag' when p % 11 = 0 then 'Nut allergy (EpiPen)' end
       from generate_series(1, ${CLASS_SIZES.parents}) p
       join users u on u.company_id = ${c} and u.email = 'parent' || p || '@bench-classes.test'
       cross join lateral generate_series(1, case when p % 2 = 0 then 2 else 1 end) k`,
    ],
    [
      'terms, closures, classes',
      `with t as (
         insert into terms (company_id, name, start_date, end_date, region, status)
         select ${c}, x.name || ' ' || extract(year from x.s), x.s, x.e, 'NSW', x.status
         from (values ${values}) x(k, name, s, e, closure, status)
         returning id, start_date),
       tk as (select t.id, x.k, x.closure from t join (values ${values}) x(k, name, s, e, closure, status)
                on x.s = t.start_date),
       cl as (insert into term_closures (company_id, term_id, start_date, end_date, reason, kind)
              select ${c}, id, closure, closure, 'Public holiday', 'closed' from tk),
       ty as (select id, row_number() over (order by id) - 1 as n from class_types where company_id = ${c}),
       ro as (select id, venue_id, row_number() over (order by id) - 1 as n from rooms where company_id = ${c}),
       co as (select id, row_number() over (order by id) - 1 as n from coaches where company_id = ${c})
       insert into term_classes (company_id, term_id, class_type_id, name, weekday, start_time, duration_minutes,
                                 venue_id, room_id, lead_coach_id, capacity, status)
       select ${c}, tk.id, ty.id,
              (array['Kinder Gym','Recreational Gymnastics','Ninja Kids'])[1 + i % 3] || ' ' ||
                (array['Mon','Tue','Wed','Thu','Fri','Sat'])[${weekday('i')}] || ' ' ||
                to_char(${startTime('i')}, 'HH24:MI') || ' R' || (${room('i')} + 1),
              ${weekday('i')}, ${startTime('i')}, 45, ro.venue_id, ro.id, co.id, 12, 'active'
       from tk cross join generate_series(0, ${CLASS_SIZES.classes} - 1) i
       join ty on ty.n = i % 3
       join ro on ro.n = ${room('i')}
       join co on co.n = ${coachOf('i')}`,
    ],
    [
      'enrolments',
      // Child j (in id order) is in class j mod 300 of each term: ten children a class.
      `with ch as (select id, row_number() over (order by id) - 1 as j from children where company_id = ${c}),
       tc as (select id, row_number() over (partition by term_id order by id) - 1 as i from term_classes
              where company_id = ${c})
       insert into class_enrolments (company_id, term_class_id, child_id, kind, status)
       select ${c}, tc.id, ch.id, 'enrolled', 'active'
       from ch join tc on tc.i = ch.j % ${CLASS_SIZES.classes}`,
    ],
    [
      'term 1 sessions',
      // What generating term 1 would have written: every week on the class's weekday, but the closure.
      `insert into class_sessions (company_id, term_class_id, slot_date, date, start_time, duration_minutes,
                                   room_id, coach_id)
       select ${c}, tc.id, d::date, d::date, tc.start_time, tc.duration_minutes, tc.room_id, tc.lead_coach_id
       from term_classes tc
       join terms t on t.id = tc.term_id and t.name like 'Term 1%'
       cross join lateral generate_series(t.start_date + (tc.weekday - 1), t.end_date, interval '7 days') d
       where tc.company_id = ${c}
         and not exists (select 1 from term_closures x where x.term_id = t.id and d::date between x.start_date and x.end_date)`,
    ],
    [
      'attendance history',
      // Rolls taken up to yesterday: mostly present, some late, absent or excused.
      `insert into attendance (company_id, session_id, child_id, status, marked_by, marked_at)
       select ${c}, s.id, e.child_id,
              (array['present','present','present','present','present','present','late','absent','excused'])
                [1 + (s.id + e.child_id) % 9],
              co.user_id, s.date + s.start_time + interval '5 minutes'
       from class_sessions s
       join class_enrolments e on e.term_class_id = s.term_class_id
       join coaches co on co.id = s.coach_id
       where s.company_id = ${c} and s.date < date '${today}'`,
    ],
  ];
}

/** Loads the class company; returns what the generation and the roll scenario need. */
export async function loadClasses(client, monday, log = () => {}) {
  const started = performance.now();
  const terms = termDates(monday);
  const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Australia/Sydney' });
  await client.query('begin');
  const {
    rows: [company],
  } = await client.query(
    `insert into companies (name, authhash, time_zone, currency, payment_method, status, email, phone)
     values ('Bench Classes', $1, 'Australia/Sydney', 'AUD', 'test', 'active', 'hello@bench-classes.test',
             '02 9000 9999') returning id`,
    [AUTHHASH],
  );
  for (const [label, sql] of statements(company.id, terms, today)) {
    const t0 = performance.now();
    await client.query(sql);
    log(`  ${label.padEnd(36)} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await client.query('commit');
  await client.query('vacuum (analyze)');
  const loadSeconds = (performance.now() - started) / 1000;

  const { rows: termRows } = await client.query(
    'select id, name from terms where company_id = $1 order by start_date',
    [company.id],
  );
  // The roll a coach opens: the first session from today on (ten children, marked or not).
  const {
    rows: [session],
  } = await client.query(
    `select s.id, s.date, s.coach_id, u.email as coach_email
     from class_sessions s join coaches co on co.id = s.coach_id join users u on u.id = co.user_id
     where s.company_id = $1 and s.date >= $2 order by s.date, s.start_time, s.id limit 1`,
    [company.id, today],
  );
  const counts = {};
  for (const table of [
    'children',
    'term_classes',
    'coaches',
    'class_enrolments',
    'class_sessions',
    'attendance',
  ]) {
    const { rows } = await client.query(`select count(*)::int as n from ${table} where company_id = $1`, [
      company.id,
    ]);
    counts[table] = rows[0].n;
  }
  return { companyId: company.id, terms: termRows, session, counts, loadSeconds };
}

async function post(url, path, token) {
  const t0 = performance.now();
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const body = await response.text();
  const seconds = (performance.now() - t0) / 1000;
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${body.slice(0, 500)}`);
  return { seconds, result: JSON.parse(body) };
}

const total = (result, key) => result.classes.reduce((sum, c) => sum + c[key].length, 0);

/**
 * Generates term 2's sessions as staff do (`POST /api/v1/admin/terms/:id/generate`: locks, reads,
 * clash and roster checks, inserts, in one transaction), then once more, when nothing changes.
 * Checks the database holds what the answer says.
 */
export async function generateTerm(url, client, classes) {
  const token = await signIn(url, ADMIN, 'demo-admin-1');
  const term = classes.terms[1];
  const path = `/api/v1/admin/terms/${term.id}/generate`;
  const first = await post(url, path, token);
  const again = await post(url, path, token);
  const {
    rows: [stored],
  } = await client.query(
    `select count(*)::int as n from class_sessions s join term_classes tc on tc.id = s.term_class_id
     where tc.term_id = $1`,
    [term.id],
  );
  const added = total(first.result, 'add');
  if (stored.n !== added)
    throw new Error(`term generation answered ${added} sessions added but the database holds ${stored.n}`);
  return {
    term: term.name,
    classes: first.result.classes.length,
    added,
    seconds: first.seconds,
    again: {
      seconds: again.seconds,
      unchanged: total(again.result, 'unchanged'),
      added: total(again.result, 'add'),
    },
  };
}

/** The roll of one session, opened by the coach who takes it (a coach sees only their sessions). */
export async function classRollScenario(url, classes) {
  const token = await signIn(url, classes.session.coach_email, 'demo-admin-1');
  return {
    name: 'class roll',
    section: 'classes',
    group: 'admin',
    connections: ADMIN_CONNECTIONS,
    requests: [
      { path: `/api/v1/admin/roll/${classes.session.id}`, headers: { authorization: `Bearer ${token}` } },
    ],
  };
}

export function generationLines(classes, generation) {
  const c = classes.counts;
  return [
    `classes: 1 company, ${c.children} children, ${c.term_classes / CLASS_SIZES.terms} weekly classes × ${CLASS_SIZES.terms} terms, ` +
      `${c.coaches} coaches, ${c.class_enrolments} enrolments, ${c.class_sessions} sessions, ${c.attendance} marks ` +
      `(loaded in ${classes.loadSeconds.toFixed(1)} s)`,
    `  generate ${generation.term} (POST /api/v1/admin/terms/:id/generate): ${generation.classes} classes, ` +
      `${generation.added} sessions added in ${generation.seconds.toFixed(2)} s`,
    `  generate it again (nothing to change): ${generation.again.unchanged} unchanged, ${generation.again.added} added ` +
      `in ${generation.again.seconds.toFixed(2)} s`,
  ];
}
