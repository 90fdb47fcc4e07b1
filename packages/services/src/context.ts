import type { Sql } from '@firebreak/db';
import type { Logger } from '@firebreak/logger';
import type { FailureLog, Metrics } from '@firebreak/metrics';
import type { Redis } from '@firebreak/queue';

/** What every use case receives: its clients and the clock (injected so tests can move time). */
export interface ServiceContext {
  sql: Sql;
  redis: Redis;
  /** Prefix of every key this installation writes to Redis (tests use one of their own). */
  redisPrefix: string;
  logger: Logger;
  metrics: Metrics;
  /** Where failures of the database, the store and the chat service are reported (logged once per change). */
  failures: FailureLog;
  /** What this installation has configured (features that need a provider). */
  features: { ai: boolean };
  /** A session ends after this long without a request (`SESSION_IDLE_TIMEOUT_MINUTES`). */
  sessionIdleTimeoutMs: number;
  now: () => Date;
}
