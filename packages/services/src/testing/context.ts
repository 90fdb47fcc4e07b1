// Test-only: a ServiceContext on a database of the test file's own and the shared Redis.
import { createSql } from '@firebreak/db';
import { createMetrics, FailureLog } from '@firebreak/metrics';
import { createRedis } from '@firebreak/queue';
import {
  captureLogs,
  createTestDatabase,
  createTestRedisPrefix,
  deleteRedisKeys,
  type LogCapture,
  testRedisUrl,
} from '@firebreak/testing';
import type { ServiceContext } from '../context';

export interface TestContext {
  ctx: ServiceContext;
  logs: LogCapture;
  cleanup(): Promise<void>;
}

export interface TestContextOptions {
  /** A database of the caller's own (a private server's), used as it is and not dropped. */
  databaseUrl?: string;
  /** How to reach the test's database (through a proxy that cuts connections, say). */
  through?: (url: string) => string;
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const db = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => {} }
    : await createTestDatabase();
  const sql = createSql(options.through ? options.through(db.url) : db.url, { max: 5 });
  const logs = captureLogs();
  const metrics = createMetrics({ defaultMetrics: false });
  const failures = new FailureLog({ logger: logs.logger, metrics });
  const redis = createRedis({ url: testRedisUrl }, 'command', failures);
  const redisPrefix = createTestRedisPrefix();
  return {
    ctx: {
      sql,
      redis,
      redisPrefix,
      logger: logs.logger,
      metrics,
      failures,
      features: { ai: false },
      sessionIdleTimeoutMs: 12 * 60 * 60 * 1000,
      now: () => new Date(),
    },
    logs,
    cleanup: async () => {
      redis.disconnect();
      // Bounded: postgres.js waits for ever on a connection that died mid-transaction (cut-off tests).
      await sql.end({ timeout: 5 });
      await db.drop();
      await deleteRedisKeys(redisPrefix);
    },
  };
}
