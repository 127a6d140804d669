// The reports (issue 17) on the class-scale company (classes.mjs): every report the server serves at
// /api/v1/admin/reports/<name>, found in its OpenAPI document, timed as staff open it (median of
// three after one warm-up) against the target of under 1 s each, with the figures printed.
import { signIn } from './scenarios.mjs';

const ADMIN = 'admin@bench-classes.test';
const TARGET_MS = 1000;

/**
 * Trials for the trial-conversion report: two children from other classes try each term 1 class's
 * third session, booked three days before it. Every child is enrolled in both terms (class j mod
 * 300, of type j mod 3), so the child of the class after (another type) has not converted and the
 * child three classes on (the same type) has: half of them.
 */
async function addTrials(client, companyId) {
  const { rowCount } = await client.query(
    `with third as (
       select s.id, s.term_class_id, s.date from (
         select s.*, row_number() over (partition by s.term_class_id order by s.date) as n
         from class_sessions s join term_classes tc on tc.id = s.term_class_id
         join terms t on t.id = tc.term_id and t.name like 'Term 1%'
         where s.company_id = $1) s
       where s.n = 3),
     ch as (select id, row_number() over (order by id) - 1 as j, count(*) over () as total
            from children where company_id = $1),
     tc as (select id, row_number() over (partition by term_id order by id) - 1 as i
            from term_classes where company_id = $1)
     insert into class_enrolments (company_id, term_class_id, child_id, kind, session_id, status, created_at)
     select $1, third.term_class_id, ch.id, 'trial', third.id, 'active', third.date - 3
     from third join tc on tc.id = third.term_class_id
     cross join generate_series(1, 2) k
     join ch on ch.j = (tc.i + (array[1, 3])[k]) % ch.total`,
    [companyId],
  );
  await client.query('analyze class_enrolments');
  return rowCount;
}

/** The filters each report is asked for on this data (the others take their defaults). */
function queryOf(name, terms) {
  const [term1, term2] = terms;
  if (name === 'trial-conversions') return `?from=${term1.start}&to=${term1.end}`;
  if (name === 'enrollment-comparison') return `?term=${(term2 ?? term1).id}`;
  return '';
}

/** Each table of a report answer as printable lines: its row count and its first rows. */
function figureLines(body) {
  return Object.entries(body.data ?? {}).flatMap(([table, rows]) => [
    `      ${table}: ${rows.length} row(s)`,
    ...rows.slice(0, 3).map((row) => `        ${JSON.stringify(row)}`),
  ]);
}

export async function reportsSection(url, client, classes) {
  const trials = await addTrials(client, classes.companyId);
  const { rows: terms } = await client.query(
    `select id, start_date::text as start, end_date::text as "end" from terms where company_id = $1 order by start_date`,
    [classes.companyId],
  );
  const token = await signIn(url, ADMIN, 'demo-admin-1');
  const headers = { authorization: `Bearer ${token}` };
  const doc = await (await fetch(`${url}/api/docs/json`)).json();
  const names = Object.keys(doc.paths ?? {})
    .filter((p) => /^\/api\/v1\/admin\/reports\/[\w-]+$/.test(p) && doc.paths[p].get)
    .map((p) => p.split('/').pop())
    .sort();
  const lines = [`reports on the class-scale company (${trials} trials added): median of 3 after a warm-up`];
  const checks = [];
  for (const name of names) {
    const target = `${url}/api/v1/admin/reports/${name}${queryOf(name, terms)}`;
    const once = async () => {
      const t0 = performance.now();
      const response = await fetch(target, { headers });
      const body = await response.json();
      return { ms: performance.now() - t0, status: response.status, body };
    };
    const first = await once();
    if (first.status !== 200) {
      lines.push(`  ${name}: answered ${first.status} ${JSON.stringify(first.body).slice(0, 120)}`);
      checks.push({ label: `report ${name} answers`, ok: false, value: String(first.status) });
      continue;
    }
    const runs = [await once(), await once(), await once()].map((r) => r.ms).sort((a, b) => a - b);
    const median = runs[1];
    lines.push(`  ${name}${queryOf(name, terms)}: ${median.toFixed(0)} ms`, ...figureLines(first.body));
    checks.push({
      label: `report ${name} < ${TARGET_MS} ms`,
      ok: median < TARGET_MS,
      value: `${median.toFixed(0)} ms`,
    });
  }
  return { lines, checks };
}
