import { defineConfig } from 'vitest/config';

// One vitest run covers every package and app. Test files share the machine's PostgreSQL and Redis,
// but each file gets its own database (cloned from a migrated template in the global setup) and its
// own Redis key prefix, so files run in parallel without seeing each other.
export default defineConfig({
  test: {
    include: [
      'apps/*/src/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
      'tests/**/*.test.ts',
      'drill/**/*.test.ts',
    ],
    globalSetup: ['./vitest.global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
