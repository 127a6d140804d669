import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * One Vitest configuration, one project per test level. `scripts/test.mjs` runs integration beside
 * the short stages (typecheck, lint, unit, web, build), then e2e, and prints the totals.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['apps/server/src/**/*.unit.test.ts', 'packages/contracts/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/src/**/*.int.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          // Each file builds its own app on its own database and mocks nothing, so files share a
          // worker's modules: importing the whole server once per worker, not once per file, was
          // most of the stage's time.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.tsx', 'apps/web/src/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          // They run beside the integration tests: a checkout test that takes 2 s alone has taken
          // over 5 s with the processor shared.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          // The specs and their browser are at a front desk in Sydney; the apps run on UTC
          // (e2e/global-setup.ts), so a date that should be the company's but is the server's shows.
          env: { TZ: 'Australia/Sydney' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Spec files run in parallel, one app per worker (e2e/global-setup.ts), each file on a
          // company of its own (e2e/support/company.ts); they mock nothing, so a worker's files
          // share its modules instead of importing playwright and the seed once per file.
          isolate: false,
        },
      },
    ],
  },
});
