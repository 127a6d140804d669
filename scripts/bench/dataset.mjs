// The generated dataset: bulk `INSERT … SELECT generate_series` straight into PostgreSQL, so the
// full size loads in seconds. Rows follow the tables in apps/server/src/**/*.tables.ts and the demo
// seed (apps/server/src/seed/demo.ts). Ids are computed (base + index) so related rows can be
// written without reading ids back; the sequences are moved past them at the end.
//
// Shape at --scale 1 (each company alike, except that the first company's first event is a
// year-round program carrying a third of all bookings, so the admin bookings list pages a big table):
//   200 companies · 20,000 parents · 35,000 children · 2,000 events · 20,000 sessions
//   150,000 bookings, each one booked session-day (booking_places) paid by one payment
//   5,000 party bookings over 600 party slots

export const PER_COMPANY = { parents: 100, events: 10 };
export const SESSIONS_PER_EVENT = 10;
const BIG_EVENT_SHARE = 1 / 3;
const BIG_EVENT_DAYS = 364;

/** Counts for a scale; every count is a whole multiple of what it is spread over. */
export function sizes(scale) {
  // At least three: the scenarios read the second company, the rush uses the third.
  const companies = Math.max(3, Math.round(200 * scale));
  const bookings = Math.round(150_000 * scale);
  const bigBookings = Math.floor(bookings * BIG_EVENT_SHARE);
  return {
    companies,
    parents: companies * PER_COMPANY.parents,
    events: companies * PER_COMPANY.events,
    sessions: companies * PER_COMPANY.events * SESSIONS_PER_EVENT,
    bookings,
    bigBookings,
    // Enough places for the big event's bookings (1.75 children each on average) with room to spare.
    bigCapacity: Math.ceil(((bigBookings / (SESSIONS_PER_EVENT * BIG_EVENT_DAYS)) * 2 + 6) / 5) * 5,
    partyBookings: Math.round(5_000 * scale),
  };
}

const isoDate = (ms) => new Date(ms).toISOString().slice(0, 10);

/** A Monday at least two weeks ahead (UTC), where the regular events cluster. */
export function baseMonday(now = Date.now()) {
  const d = new Date(now + 14 * 86_400_000);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7));
  return isoDate(d.getTime());
}

/** Integers only are inlined into the SQL below. */
const int = (n) => {
  if (!Number.isInteger(n)) throw new Error(`not an integer: ${n}`);
  return String(n);
};

async function maxIds(client, tables) {
  const bases = {};
  for (const table of tables) {
    const { rows } = await client.query(`select coalesce(max(id), 0)::int as id from ${table}`);
    bases[table] = rows[0].id;
  }
  return bases;
}

/** The statements, in dependency order; each is [label, sql]. */
function statements(n, base, monday) {
  const C = int(n.companies);
  const PPC = int(PER_COMPANY.parents);
  const EPC = int(PER_COMPANY.events);
  const SPE = int(SESSIONS_PER_EVENT);
  const company = (ci) => `${int(base.companies)} + ${ci}`;
  // Regular event e (0..9) of a company starts e-3 weeks from the base Monday: some past, most ahead.
  const eventStart = (e) => `('${monday}'::date + (${e} - 3) * 7)`;
  const bigStart = `('${monday}'::date - 175)`;
  const parentId = (p) => `${int(base.users)} + ${C} + ${p}`;
  return [
    [
      'companies',
      `insert into companies (id, name, authhash, time_zone, currency, payment_method, status, email, phone)
       select ${company('c')}, 'Bench Gym ' || c, 'bench-' || c, 'Australia/Sydney', 'AUD', 'test', 'active',
              'hello@bench-' || c || '.test', '02 9000 ' || lpad(c::text, 4, '0')
       from generate_series(1, ${C}) c`,
    ],
    [
      'company settings',
      `with c as (select ${company('c')} as id, c as n from generate_series(1, ${C}) c),
       v as (insert into venues (id, company_id, name, address, suburb, state, postcode)
             select ${int(base.venues)} + n, id, 'Bench Centre ' || n, n || ' Main Street', 'Parramatta', 'NSW', '2150' from c),
       pm as (insert into payment_methods (company_id, provider, label, enabled, is_default)
              select id, 'test', 'Card (test mode)', true, true from c),
       s as (insert into surcharges (company_id, name, payment_method, kind, amount)
             select id, 'Card surcharge', 'test', 'percent', 150 from c),
       i as (insert into insurances (company_id, name, kind, price, description)
             select id, x.name, x.kind, x.price, 'Bench cover' from c,
                    (values ('Daily accident cover', 'daily', 300), ('Season cover', 'full', 2500)) x(name, kind, price)),
       cp as (insert into coupons (company_id, code, discount_type, percent_off, valid_from, valid_to, per_parent_limit)
              select id, 'BENCH10', 'percent', 10, current_date - 30, current_date + 365, 5 from c),
       nsw as (insert into nsw_settings (company_id, name, enabled, voucher_value, code_format)
               select id, 'Active Kids voucher', true, 5000, '^[0-9]{8}$' from c),
       pt as (insert into payment_terms (company_id, name, applies_to, content)
              select id, x.name, x.applies_to, '<p>Bookings are confirmed once paid.</p>' from c,
                     (values ('Holiday program terms', 'events'), ('Birthday party terms', 'parties')) x(name, applies_to)),
       bp as (insert into birthday_pricing (company_id, name, base_price, included_guests, price_per_extra_guest, deposit)
              select id, 'Birthday party', 39500, 10, 2500, 10000 from c),
       rd as (insert into restricted_dates (company_id, date, reason, applies_to, recurring_yearly)
              select id, make_date(extract(year from current_date)::int, 12, 25), 'Christmas Day', 'all', true from c)
       insert into party_slots (id, company_id, name, venue_id, start_time, duration_minutes, days_of_week, capacity)
       select ${int(base.party_slots)} + (c.n - 1) * 3 + x.k, c.id, x.name, ${int(base.venues)} + c.n, x.start_time::time, 120, x.days::text[], 20
       from c, (values (1, 'Saturday morning', '10:00', '{6}'), (2, 'Saturday afternoon', '13:30', '{6}'),
                       (3, 'Sunday morning', '10:00', '{7}')) x(k, name, start_time, days)`,
    ],
    [
      'staff and parents',
      `with hashes as (
         select (select password_hash from users where email = 'admin@demo.test') as staff,
                (select password_hash from users where email = 'parent@demo.test') as parent)
       insert into users (id, company_id, role, email, full_name, phone, password_hash, status)
       select ${int(base.users)} + c, ${company('c')}, 'companyadmin', 'admin@bench-' || c || '.test',
              'Admin ' || c, null, hashes.staff, 'active'
       from generate_series(1, ${C}) c, hashes
       union all
       select ${parentId('p')}, ${company(`((p - 1) / ${PPC} + 1)`)}, 'student', 'parent' || p || '@bench.test',
              (array['Sam','Alex','Jordan','Taylor','Casey','Riley','Morgan','Jamie'])[1 + p % 8] || ' Parent' || p,
              '04' || lpad((p * 7919 % 100000000)::text, 8, '0'), hashes.parent, 'active'
       from generate_series(1, ${int(n.parents)}) p, hashes`,
    ],
    [
      'children',
      // A quarter of the families have one child, the rest two: 1.75 children per parent.
      `insert into children (company_id, parent_id, first_name, last_name, dob, consent, insurance_type)
       select ${company(`((p - 1) / ${PPC} + 1)`)}, ${parentId('p')},
              (array['Noah','Ava','Oliver','Mia','Leo','Isla','Jack','Zoe','Liam','Ruby'])[1 + (p + k * 3) % 10],
              'Parent' || p, date '2013-01-01' + (p * 37 + k * 101) % 3000, p % 3 <> 0,
              case when p % 5 = 0 then 'daily_insurance' end
       from generate_series(1, ${int(n.parents)}) p
       cross join lateral generate_series(1, case when p % 4 = 0 then 1 else 2 end) k`,
    ],
    [
      'events',
      `insert into events (id, company_id, name, venue_id, start_date, end_date, age_start, age_end, intro, "full",
                           booking_fee, published)
       select ${int(base.events)} + ev, ${company('ci')},
              case when ev = 1 then 'Year-round Gymnastics Program' else 'Holiday Camp ' || ev end,
              ${int(base.venues)} + ci,
              case when ev = 1 then ${bigStart} else ${eventStart('e')} end,
              case when ev = 1 then ${bigStart} + ${int(BIG_EVENT_DAYS - 1)} else ${eventStart('e')} + 11 end,
              5, 12, 'Tumbling, trampoline and games for kids aged 5 to 12.',
              '<p>Our coaches run a full program of <strong>gymnastics, trampoline and ninja games</strong>. Bring a water bottle, a hat and a packed lunch.</p>',
              case when e % 2 = 0 then 250 else 0 end, true
       from generate_series(1, ${int(n.events)}) ev,
            lateral (select (ev - 1) / ${EPC} + 1 as ci, (ev - 1) % ${EPC} as e) x`,
    ],
    [
      'sessions, tickets, tiers, contacts',
      `with s as (
         insert into event_sessions (id, company_id, event_id, name, start_date, end_date, start_time, end_time,
                                     days_of_week, capacity)
         select ${int(base.event_sessions)} + (e.id - ${int(base.events)} - 1) * ${SPE} + k + 1, e.company_id, e.id,
                'Session ' || (k + 1), e.start_date, e.end_date, time '07:00' + k * interval '1 hour',
                time '10:00' + k * interval '1 hour',
                case when e.id = ${int(base.events)} + 1 then '{1,2,3,4,5,6,7}'::text[] else '{1,2,3,4,5}'::text[] end,
                case when e.id = ${int(base.events)} + 1 then ${int(n.bigCapacity)} else 20 end
         from events e cross join generate_series(0, ${SPE} - 1) k
         where e.id > ${int(base.events)}
         returning id, company_id, event_id, name),
       t as (insert into event_tickets (company_id, event_id, session_id, name, price)
             select company_id, event_id, null, 'Day', 4500 from s where name = 'Session 1'
             union all
             select company_id, event_id, id, 'Early session', 5500 from s where name = 'Session 1'),
       tier as (insert into event_price_tiers (company_id, event_id, session_id, name, min_days, price)
                select company_id, event_id, null, '5 days or more', 5, 4000 from s where name = 'Session 1')
       insert into event_contacts (company_id, event_id, name, email, phone)
       select company_id, event_id, 'Casey Coach', 'camps@bench.test', '0400 123 456' from s where name = 'Session 1'`,
    ],
    [
      'bookings (staging)',
      // One row per booking with everything the four tables below need. The first bigBookings go to
      // the big event (each of its 3,640 session-days gets ~14); the rest spread over every other
      // event, one booking per session-day.
      `create temporary table bench_bookings as
       with big as (
         select j, 1 as ev, 1 as ci,
                (j * 7) % ${PPC} + 1 as p,
                (j / ${int(BIG_EVENT_DAYS)}) % ${SPE} as k,
                ${bigStart} + j % ${int(BIG_EVENT_DAYS)} as day
         from generate_series(0, ${int(n.bigBookings)} - 1) j),
       regular as (
         select j, ev, (ev - 1) / ${EPC} + 1 as ci, nth, (ev - 1) % ${EPC} as e
         from generate_series(${int(n.bigBookings)}, ${int(n.bookings)} - 1) j,
              lateral (select 2 + (j - ${int(n.bigBookings)}) % (${int(n.events)} - 1) as ev,
                              (j - ${int(n.bigBookings)}) / (${int(n.events)} - 1) as nth) x),
       placed as (
         select j, ev, ci, p, k, day from big
         union all
         select j, ev, ci, (ci - 1) * ${PPC} + 1 + (nth * 13 + ev) % ${PPC}, nth % ${SPE},
                ${eventStart('e')} + (nth / ${SPE}) % 10 + case when (nth / ${SPE}) % 10 >= 5 then 2 else 0 end
         from regular)
       select j, ${int(base.bookings)} + j + 1 as booking_id, ${company('ci')} as company_id,
              ${parentId('p')} as parent_id, ${int(base.events)} + ev as event_id,
              ${int(base.event_sessions)} + (ev - 1) * ${SPE} + k + 1 as session_id, day as date,
              case when p % 4 = 0 then 1 else 2 end as quantity,
              now() - ((j * 7919) % 525600) * interval '1 minute' as created_at,
              substr(md5('bench' || j), 1, 16) as reference,
              case when j % 10 = 0 then 'BENCH10' end as coupon_code
       from placed`,
    ],
    [
      'bookings',
      `insert into bookings (id, company_id, parent_id, event_id, reference, code, status, quantity, pricing, total,
                             coupon_code, provider, created_at, confirmed_at)
       select booking_id, company_id, parent_id, event_id, reference, 'BK-' || j, 'confirmed', quantity,
              jsonb_build_object('subtotal', 4500 * quantity, 'total', 4500 * quantity), 4500 * quantity,
              coupon_code, 'test', created_at, created_at
       from bench_bookings`,
    ],
    [
      'booking places',
      `insert into booking_places (company_id, booking_id, session_id, date, places, unit_price)
       select company_id, booking_id, session_id, date, quantity, 4500 from bench_bookings`,
    ],
    [
      'booking children',
      `insert into booking_children (company_id, booking_id, child_id, insurance_type)
       select b.company_id, b.booking_id, c.id, case when c.insurance_type is null then 'none' else 'daily_insurance' end
       from bench_bookings b join children c on c.parent_id = b.parent_id`,
    ],
    [
      'payments',
      `insert into payments (company_id, purchase_kind, purchase_id, provider, provider_ref, amount, status, created_at, paid_at)
       select company_id, 'event', booking_id, 'test', 'test_cs_bench_' || j, 4500 * quantity, 'paid', created_at, created_at
       from bench_bookings`,
    ],
    [
      'party bookings',
      // Each company's parties fill its three slots weekend after weekend from the Saturday before
      // the base Monday: no slot is booked twice on a date.
      `insert into party_bookings (company_id, parent_id, slot_id, date, child_id, reference, code, status, guests, pricing,
                                   total, deposit, balance, provider, created_at, confirmed_at)
       select ${company('ci')}, ${parentId('p')}, ${int(base.party_slots)} + (ci - 1) * 3 + k + 1,
              '${monday}'::date - 2 + (nth / 3) * 7 + case when k = 2 then 1 else 0 end,
              (select min(id) from children where company_id = ${company('ci')} and parent_id = ${parentId('p')}),
              'pb' || substr(md5('party' || q), 1, 14), 'BP-' || q, 'confirmed', 12,
              '{"base": 39500, "extra_guests": 5000, "total": 44500}'::jsonb, 44500, 10000, 34500, 'test',
              now() - q * interval '7 minutes', now() - q * interval '7 minutes'
       from generate_series(0, ${int(n.partyBookings)} - 1) q,
            lateral (select q % ${C} + 1 as ci, q / ${C} as nth) x,
            lateral (select nth % 3 as k, (ci - 1) * ${PPC} + 1 + (nth * 7) % ${PPC} as p) y`,
    ],
    ['drop staging', 'drop table bench_bookings'],
  ];
}

const EXPLICIT_ID_TABLES = [
  'companies',
  'venues',
  'users',
  'events',
  'event_sessions',
  'party_slots',
  'bookings',
];

/**
 * Loads the dataset into an empty (migrated, demo-seeded) database. Returns the counts, the time
 * taken and what the scenarios need to find their rows.
 */
export async function loadDataset(client, scale, log = () => {}) {
  const n = sizes(scale);
  const monday = baseMonday();
  const started = performance.now();
  const base = await maxIds(client, EXPLICIT_ID_TABLES);
  await client.query('begin');
  for (const [label, sql] of statements(n, base, monday)) {
    const t0 = performance.now();
    await client.query(sql);
    log(`  ${label.padEnd(36)} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  for (const table of EXPLICIT_ID_TABLES)
    await client.query(
      `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
    );
  await client.query('commit');
  const loadSeconds = (performance.now() - started) / 1000;
  const t0 = performance.now();
  // Statistics and the visibility map as a database in use would have them (autovacuum's work).
  await client.query('vacuum (analyze)');
  const analyzeSeconds = (performance.now() - t0) / 1000;
  return { n, base, monday, loadSeconds, analyzeSeconds, counts: await countRows(client) };
}

const COUNTED = [
  'companies',
  'users',
  'children',
  'events',
  'event_sessions',
  'bookings',
  'booking_children',
  'booking_places',
  'payments',
  'party_bookings',
];

async function countRows(client) {
  const counts = {};
  for (const table of COUNTED) {
    const { rows } = await client.query(`select count(*)::int as n from ${table}`);
    counts[table] = rows[0].n;
  }
  return counts;
}
