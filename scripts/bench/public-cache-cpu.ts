/**
 * CPU and queries per call of the public calls, with the public read cache on and bypassed (its
 * listener stopped), one request at a time on an embedded PostgreSQL of its own:
 * `N=300 node --import tsx scripts/bench/public-cache-cpu.ts` (docs/performance.md, Public read cache).
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { encodeEventCode } from '@tumble/contracts/booking';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { connectDatabase, ensureDatabase } from '../../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded.ts';
import { runMigrations } from '../../apps/server/src/db/migrate.ts';
import { LocalDiskStorage } from '../../apps/server/src/platform/files.ts';
import { startJobs } from '../../apps/server/src/platform/jobs.ts';
import { publicCacheOf } from '../../apps/server/src/platform/public-cache.ts';
import { createBookableEvent } from '../../apps/server/src/testing/booking-fixtures.ts';
import { createCompany } from '../../apps/server/src/testing/factories.ts';
import { createPartySetup } from '../../apps/server/src/testing/party-fixtures.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'cpu-probe-'));
const pgServer = await startEmbeddedPostgres(dir);
const url = await ensureDatabase(pgServer.url, 'probe');
const config = loadConfig({
  DATA_DIR: dir,
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  SEED_DEMO: 'false',
  PUBLIC_URL: 'http://x.test',
  RATE_LIMIT_PER_MINUTE: '10000000',
  WEB_DIST: '/nonexistent',
});
const database = connectDatabase(url, { max: 10 });
await runMigrations(database.db);
const jobs = await startJobs({ config, database, databaseUrl: url, workers: false });
const app = await buildApp({ config, database, jobs, files: new LocalDiskStorage(config.filesDir) });
await app.ready();
const company = await createCompany(database.db, { paymentMethod: 'test' });
const { event } = await createBookableEvent(database.db, company.id);
await createPartySetup(database.db, company.id);
const e = encodeEventCode(company.id, event.id);
const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
const urls: Record<string, string> = {
  'booking page': `/api/v1/booking?e=${e}&authhash=${company.authhash}`,
  'booking sessions': `/api/v1/booking/sessions?e=${e}&authhash=${company.authhash}`,
  'charges summary': `/api/v1/calculate-charges-summary?authhash=${company.authhash}&type_of_registration=event&event_id=${event.id}&quantity=1`,
  'party calendar': `/api/v1/birthday-party/booking/load-calendar?authhash=${company.authhash}&year=${new Date().getFullYear() + 1}`,
  'party slot-capacity': `/api/v1/birthday-party/booking/slot-capacity?authhash=${company.authhash}&date=${date}`,
};
// Every query outside a transaction goes through pool.query (drizzle's node-postgres session).
let queries = 0;
const query = database.pool.query.bind(database.pool);
database.pool.query = ((...args: Parameters<typeof query>) => {
  queries++;
  return query(...args);
}) as typeof query;
const N = Number(process.env.N ?? 400);
async function measure(label: string) {
  for (const [name, u] of Object.entries(urls)) {
    for (let i = 0; i < 50; i++) {
      const r = await app.inject({ method: 'GET', url: u });
      if (r.statusCode !== 200) throw new Error(`${name} ${r.statusCode} ${r.body}`);
    }
    queries = 0;
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await app.inject({ method: 'GET', url: u });
    const used = process.cpuUsage(cpu);
    const wall = performance.now() - t0;
    console.log(
      `${label.padEnd(10)} ${name.padEnd(20)} cpu ${((used.user + used.system) / N / 1000).toFixed(2)} ms/req  wall ${(wall / N).toFixed(2)} ms/req  queries ${(queries / N).toFixed(1)}/req`,
    );
  }
}
await measure('cache on');
await publicCacheOf(database.db)!.stop();
await measure('bypassed');
await app.close();
await jobs.stop();
await database.close();
await pgServer.stop();
process.exit(0);
