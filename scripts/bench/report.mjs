// The printed results: one table of the load scenarios, then the rush, the front end, and the
// issue's targets each marked met or not met.

const fixed = (value, digits = 0) => (value === undefined || value === null ? '—' : value.toFixed(digits));

function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function loadTable(rows) {
  const baseline = rows.find((r) => r.baseline)?.result.requestsPerSecond;
  const legend = [
    'no-db baseline: GET of an unknown /api/v1 path, answered by the API with its JSON 404 (expected,',
    'not an error) without the database; /api/health is not one (it runs select 1).',
    'errors: answers other than expected, socket errors and timeouts.',
  ];
  // With several processes (--processes): the same scenario driven at process A alone, and the
  // ratio of the proxied run to it.
  const compared = rows.some((r) => r.single);
  if (compared)
    legend.push(
      'peak RSS: the highest API process. 1 proc req/s: the same load driven at process A alone.',
      '× 1 proxied: req/s through the proxy over 1 proc (the proxy runs in the bench process, on the same cores).',
      'no-proxy req/s: the connections split over the processes, each share driven straight at its',
      'process, at once; × 1 no proxy: that over 1 proc.',
    );
  const rendered = table(
    [
      'scenario',
      'conns',
      'req/s',
      '× baseline',
      'p50 ms',
      'p99 ms',
      'errors',
      'peak RSS MB',
      ...(compared ? ['1 proc req/s', '× 1 proxied', 'no-proxy req/s', '× 1 no proxy'] : []),
    ],
    rows.map(({ name, result, rss, connections, single, direct }) => [
      name,
      connections,
      fixed(result.requestsPerSecond),
      baseline ? fixed(result.requestsPerSecond / baseline, 2) : '—',
      fixed(result.p50, 1),
      fixed(result.p99, 1),
      result.errors,
      fixed(rss),
      ...(compared
        ? [
            single ? fixed(single.requestsPerSecond) : '—',
            single ? fixed(result.requestsPerSecond / single.requestsPerSecond, 2) : '—',
            direct ? fixed(direct.requestsPerSecond) : '—',
            direct ? fixed(direct.requestsPerSecond / single.requestsPerSecond, 2) : '—',
          ]
        : []),
    ]),
  );
  return `${rendered}\n${legend.join('\n')}`;
}

/** "A 250 (25× 200, 225× 409), B 250 (…)": what each process answered, from the proxy's counts. */
export function spreadLine(spread) {
  return spread
    .map(
      ({ name, statuses, total, inFlight }) =>
        `${name} ${total} (${[
          ...Object.entries(statuses).map(([code, n]) => `${n}× ${code}`),
          ...(inFlight ? [`${inFlight} still in flight`] : []),
        ].join(', ')})`,
    )
    .join(', ');
}

export function rushLines(rush, result, verdict, taken, spread) {
  const statuses = Object.entries(result.statuses)
    .map(([code, n]) => `${n}× ${code}`)
    .join(', ');
  return [
    `booking rush: ${rush.tokens.length} parents, ${rush.places} places of one session-date`,
    `  answered in ${result.seconds.toFixed(2)} s (${statuses}); ${verdict.holdsPerSecond.toFixed(1)} completed holds/s; ` +
      `p50 ${fixed(result.p50)} ms, p99 ${fixed(result.p99)} ms, slowest ${fixed(result.max)} ms`,
    `  database: ${taken.places} places held by ${taken.bookings} bookings`,
    ...(spread ? [`  answered by process: ${spreadLine(spread)}`] : []),
    ...verdict.checks.map((c) => `  ${c.ok ? 'PASS' : 'FAIL'}  ${c.label}: ${c.value}`),
  ];
}

export function frontendLines(sizes, lh) {
  const lines = [
    'public booking route (/booking), gzip -9:',
    `  JS  ${sizes.js.total.toFixed(1)} KB = ${sizes.js.initial.toFixed(1)} KB initial + ${sizes.js.route.toFixed(1)} KB route`,
    `  CSS ${sizes.css.total.toFixed(1)} KB = ${sizes.css.initial.toFixed(1)} KB initial + ${sizes.css.route.toFixed(1)} KB route`,
    `  files: ${[...sizes.files.initial, ...sizes.files.route].map((f) => f.replace('assets/', '')).join(' ')}`,
  ];
  if (lh) {
    lines.push(
      // One line per public page (/booking, party, registration), each the median of its runs.
      ...(lh.pages ?? [lh]).flatMap((p) => [
        `Lighthouse (mobile, median of ${p.runs})${p.page ? ` on ${p.page}` : ''}: performance ${p.score}, ` +
          `LCP ${(p.lcp / 1000).toFixed(2)} s, FCP ${(p.fcp / 1000).toFixed(2)} s, TBT ${fixed(p.tbt)} ms, ` +
          `CLS ${p.cls.toFixed(3)}, ${p.transferredKb.toFixed(0)} KB transferred`,
        ...p.opportunities.map((o) => `  opportunity: ${o}`),
      ]),
      ...(lh.accessibilityPages ?? []).map(
        (a) =>
          `Lighthouse accessibility ${a.score} on ${a.page}${a.failing.length > 0 ? `: fails ${a.failing.join('; ')}` : ''}`,
      ),
    );
  }
  return lines;
}

/** The issue's targets, each with the figure it was judged on. */
export function targets({ rows, verdict, generation, sizes, lh, peakRss, visibility }) {
  const baseline = rows.find((r) => r.baseline)?.result.requestsPerSecond;
  const out = [];
  const add = (label, ok, value) => out.push({ label, ok, value });
  for (const { name, result } of rows.filter((r) => r.group === 'public')) {
    const ratio = result.requestsPerSecond / baseline;
    add(`${name}: ≥ 0.40 × baseline`, ratio >= 0.4, `${ratio.toFixed(2)} ×`);
    add(`${name}: p99 < 50 ms`, result.p99 < 50, `${fixed(result.p99, 1)} ms`);
  }
  for (const { name, result } of rows.filter((r) => r.group === 'admin'))
    add(`${name}: p99 < 100 ms`, result.p99 < 100, `${fixed(result.p99, 1)} ms`);
  if (generation)
    add(
      `generate a term's sessions (${generation.classes} classes): < 5 s`,
      generation.seconds < 5,
      `${generation.seconds.toFixed(2)} s`,
    );
  if (verdict) {
    add('rush: zero oversold', verdict.notOversold.ok, `${verdict.notOversold.value} places held`);
    add('rush: zero 5xx', verdict.no5xx.ok, verdict.no5xx.value);
    add('rush: all answered within 5 s', verdict.within5s.ok, verdict.within5s.value);
  }
  if (sizes) add('/booking JS < 150 KB gzipped', sizes.js.total < 150, `${sizes.js.total.toFixed(1)} KB`);
  if (lh) {
    // Judged on every public page measured (the worst one decides); the figures list each.
    const pages = lh.pages ?? [lh];
    const each = (figure) => pages.map(figure).join(' / ');
    add(
      'Lighthouse performance ≥ 95',
      pages.every((p) => p.score >= 95),
      each((p) => p.score),
    );
    add(
      'Lighthouse LCP < 1.5 s',
      pages.every((p) => p.lcp < 1500),
      each((p) => `${(p.lcp / 1000).toFixed(2)} s`),
    );
    add(
      'Lighthouse CLS < 0.05',
      pages.every((p) => p.cls < 0.05),
      each((p) => p.cls.toFixed(3)),
    );
    const a11y = lh.accessibilityPages ?? [];
    if (a11y.length > 0)
      add(
        'Lighthouse accessibility 100 on the public pages',
        a11y.every((a) => a.score === 100),
        a11y.map((a) => a.score).join(' / '),
      );
  }
  if (visibility) add(visibility.check.label, visibility.check.ok, visibility.check.value);
  add(
    'server RSS < 300 MB through the run (each API process)',
    peakRss < 300,
    `${peakRss.toFixed(0)} MB peak`,
  );
  return out;
}

export function targetLines(list) {
  return list.map((t) => `  ${t.ok ? 'met    ' : 'NOT MET'}  ${t.label}: ${t.value}`);
}
