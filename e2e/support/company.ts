import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { beforeAll } from 'vitest';
import { loadConfig } from '../../apps/server/src/config.ts';
import { connectDatabase } from '../../apps/server/src/db/client.ts';
import {
  DEMO_COMPANY,
  type DemoCompany,
  demoEmail,
  demoEventCode,
  seedDemoCompany,
} from '../../apps/server/src/seed/demo.ts';
import { DEMO_OPERATOR } from '../../apps/server/src/seed/operator-demo.ts';
import { worker } from './browser.ts';

/**
 * Each spec file reads and changes a company of its own: a copy of the demo company (the same
 * names, prices, families, classes and bookings, made by the demo's own seed functions) with its
 * own ids, authhash and addresses, seeded into this worker's database before the file's tests.
 * A spec never sees another spec's rows, so none depends on another having run, or on the order.
 */

let current: DemoCompany | undefined;

/** The company of the spec file being run (set by `useCompany` or `useDemoCompany`). */
export function company(): DemoCompany {
  if (!current) {
    throw new Error(
      'this spec has no company: call useCompany() (or useDemoCompany()) at the top of the file',
    );
  }
  return current;
}

/** An address of one of the company's people: person('walker') is the Walker family's parent. */
export function person(local: string): string {
  return demoEmail(local, company().emailDomain);
}

/** The public booking page's `e` of one of the company's two demo events. */
export function eventCodeOf(event: keyof DemoCompany['events']): string {
  const { companyId, events } = company();
  return demoEventCode(events[event], companyId);
}

/** Seeds this spec file's own company before its tests; `company()` answers it from then on. */
export function useCompany(): () => DemoCompany {
  beforeAll(async () => {
    const server = worker();
    const config = loadConfig({
      ...process.env,
      PUBLIC_URL: server.baseUrl,
      DATA_DIR: path.join(os.tmpdir(), 'tumble-e2e-seed'),
    });
    const database = connectDatabase(server.databaseUrl, { max: 2 });
    try {
      const tag = randomBytes(5).toString('hex');
      current = await seedDemoCompany(database.db, config, {
        authhash: `e2e${tag}`,
        emailDomain: `${tag}.e2e.test`,
      });
    } finally {
      await database.close();
    }
  }, 60_000);
  return company;
}

/**
 * For the few specs that test the demo itself (the README's links and logins): the demo company
 * that every app of the run seeded at its start. They must leave it as they found it.
 */
export function useDemoCompany(): () => DemoCompany {
  beforeAll(() => {
    current = DEMO_COMPANY;
  });
  return company;
}

/** The installation's operator (seeded once per installation, not a company's): any spec may sign in as them. */
export const operator = DEMO_OPERATOR;
