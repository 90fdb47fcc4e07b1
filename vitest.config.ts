import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's own order (the slowest files first when it has timings from an earlier run on this machine,
 * else the largest files first), with the drill's files ahead of everything: its one small file runs
 * the short drills for about three minutes, so a fresh clone (as in CI) would start it last and run it
 * alone on one fork while the other idles.
 */
class DrillFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isDrill = (file: TestSpecification) =>
      relative(import.meta.dirname, file.moduleId).startsWith('drill/');
    return [...sorted.filter(isDrill), ...sorted.filter((file) => !isDrill(file))];
  }
}

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
    sequence: { sequencer: DrillFirst },
    pool: 'forks',
    // Two files at a time even on two cores: most of a file's time is spent waiting on PostgreSQL,
    // Redis, timers and child processes, so a second fork halves the wall time without starving either.
    poolOptions: { forks: { minForks: 1, maxForks: 2 } },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
