import PgBoss from 'pg-boss';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { deliverPendingMail } from './mail/mail.service.ts';

/** Queue names. A worker for each is registered in `startJobs`. */
export const queues = {
  /** Sends pending outbox mail; nudged after each commit that queues mail, and swept every minute. */
  mailDeliver: 'mail.deliver',
} as const;

export interface Jobs {
  /** Asks a worker to run soon. Never throws: a missed nudge is caught by the sweep. */
  nudge(queue: (typeof queues)[keyof typeof queues]): Promise<void>;
  /**
   * Runs `handler` every minute (and when nudged), in one process at a time. Features register
   * their periodic work here once the app's dependencies exist (see main.ts).
   */
  every(queue: string, handler: () => Promise<unknown>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts pg-boss on the application database (schema `pgboss`) and its workers. The worker runs
 * inside the server by default; `npm run worker` runs the same workers as their own process.
 */
export async function startJobs(deps: {
  config: Config;
  database: Database;
  databaseUrl: string;
  workers?: boolean;
}): Promise<Jobs> {
  const boss = new PgBoss({ connectionString: deps.databaseUrl, max: 5 });
  // One line per error: a database restart or shutdown is expected noise, not a stack dump.
  boss.on('error', (error) => console.error(`[jobs] ${error.message}`));
  await boss.start();
  for (const name of Object.values(queues)) await boss.createQueue(name);
  if (deps.workers !== false) {
    await boss.work(queues.mailDeliver, { batchSize: 1 }, async () => {
      await deliverPendingMail(deps.database, deps.config);
    });
    await boss.schedule(queues.mailDeliver, '* * * * *');
  }
  return {
    async nudge(queue) {
      try {
        // Every nudge is a job: pg-boss's singleton window would drop a nudge that follows a finished
        // run, leaving its mail for the sweep. Extra runs are cheap (rows are claimed with SKIP LOCKED).
        await boss.send(queue, {});
      } catch (error) {
        console.error('[jobs] nudge failed', error);
      }
    },
    async every(queue, handler) {
      if (deps.workers === false) return;
      await boss.createQueue(queue, { name: queue, policy: 'singleton' });
      await boss.work(queue, { batchSize: 1 }, async () => {
        await handler();
      });
      await boss.schedule(queue, '* * * * *');
    },
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 10_000 }),
  };
}
