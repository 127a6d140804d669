import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * One Vitest configuration, one project per test level. `scripts/test.mjs` runs them in order
 * (unit → integration → web → e2e) and prints the totals.
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
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
