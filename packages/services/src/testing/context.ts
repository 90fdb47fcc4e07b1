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

export async function createTestContext(): Promise<TestContext> {
  const db = await createTestDatabase();
  const sql = createSql(db.url, { max: 5 });
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
      await sql.end();
      await db.drop();
      await deleteRedisKeys(redisPrefix);
    },
  };
}
