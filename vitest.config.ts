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
    // Two files at a time even on two cores: most of a file's time is spent waiting on PostgreSQL,
    // Redis, timers and child processes, so a second fork halves the wall time without starving either.
    poolOptions: { forks: { minForks: 1, maxForks: 2 } },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
