// The load generator, run as its own process (run.mjs forks it once per scenario) so autocannon's
// own work is not counted in the server's process. It receives one job over IPC, runs an unmeasured
// warm-up, then the measured run, and sends back the figures.
import autocannon from 'autocannon';

/**
 * Requests of a job: `{ method, path, headers, body }`, cycled in order by each connection. With
 * `tokens`, every request sent carries the next token as its bearer (one parent per request).
 */
function requestsOf(job) {
  let next = 0;
  return job.requests.map((request) => ({
    method: request.method ?? 'GET',
    path: request.path,
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    ...(job.tokens
      ? {
          setupRequest: (req) => ({
            ...req,
            headers: { ...req.headers, authorization: `Bearer ${job.tokens[next++ % job.tokens.length]}` },
          }),
        }
      : {}),
  }));
}

/** A run of `seconds`, or of exactly `amount` requests (the rush). */
function run(job, { seconds = job.duration, amount = job.amount } = {}) {
  return autocannon({
    url: job.url,
    connections: job.connections,
    ...(amount ? { amount } : { duration: seconds }),
    timeout: job.timeout ?? 10,
    headers: { 'content-type': 'application/json', ...(job.headers ?? {}) },
    requests: requestsOf(job),
  });
}

function summarize(job, result) {
  const expected = new Set(job.expect ?? [200]);
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
  );
  const unexpected = Object.entries(statuses)
    .filter(([code]) => !expected.has(Number(code)))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    seconds: (new Date(result.finish) - new Date(result.start)) / 1000,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    statuses,
    // Answers other than the expected statuses, plus socket errors and timeouts.
    errors: unexpected + result.errors,
    timeouts: result.timeouts,
  };
}

process.once('message', async (job) => {
  try {
    if (job.warmup > 0) await run(job, { seconds: job.warmup, amount: 0 });
    const result = await run(job);
    process.send({ ok: true, result: summarize(job, result) });
  } catch (error) {
    process.send({ ok: false, error: String(error?.stack ?? error) });
  } finally {
    process.disconnect();
  }
});
