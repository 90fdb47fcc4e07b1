import { type Config, DEFAULT_REDIS_URL } from '@firebreak/config';
import { createSql, describeDatabaseFailure, pingDatabase, type Sql } from '@firebreak/db';
import { createLogger, type Logger } from '@firebreak/logger';
import { createMetrics, FailureLog, type Metrics } from '@firebreak/metrics';
import { createRedis, type Redis, type RedisConfig } from '@firebreak/queue';
import type { Readiness } from '@firebreak/schema';
import { createReadinessProbe, type ServiceContext } from '@firebreak/services';

/** The clients one Firebreak process holds, built once from the configuration. */
export interface Runtime {
  config: Config;
  logger: Logger;
  sql: Sql;
  redis: Redis;
  ctx: ServiceContext;
  /** How this process reaches Redis (workers open their own blocking connections with it). */
  redisConfig: RedisConfig;
  ready: () => Promise<Readiness>;
  /** Closes the clients (not the servers or workers built on them). */
  close(): Promise<void>;
}

export interface CreateRuntimeOptions {
  name: string;
  config: Config;
  /** Overrides for the embedded start, which finds its database and store itself. */
  databaseUrl?: string;
  redisUrl?: string;
  logger?: Logger;
  /** Key prefix in Redis; `firebreak` unless a test needs its own. */
  redisPrefix?: string;
  /** Where this process's metrics are registered, when not a registry of its own (one of several processes). */
  registry?: Metrics['registry'];
}

export function createRuntime(options: CreateRuntimeOptions): Runtime {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel, name: options.name });
  const databaseUrl = options.databaseUrl ?? config.databaseUrl;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set');
  const sql = createSql(databaseUrl, {
    max: config.dbMaxOpenConns,
    applicationName: `firebreak-${options.name}`,
  });
  const redisConfig: RedisConfig = {
    url: options.redisUrl ?? config.redis.url ?? DEFAULT_REDIS_URL,
    password: config.redis.password,
    sentinels: config.redis.sentinels,
    sentinelMaster: config.redis.sentinelMaster,
  };
  const metrics = createMetrics({ registry: options.registry });
  const failures = createFailureLog(logger, metrics, sql);
  const redis = createRedis(redisConfig, 'command', failures);
  const ctx: ServiceContext = {
    sql,
    redis,
    redisPrefix: options.redisPrefix ?? 'firebreak',
    logger,
    metrics,
    failures,
    features: { ai: config.ai.provider !== 'none' },
    sessionIdleTimeoutMs: config.sessionIdleTimeoutMinutes * 60_000,
    now: () => new Date(),
  };
  return {
    config,
    logger,
    sql,
    redis,
    ctx,
    redisConfig,
    ready: createReadinessProbe({ sql, redis, failures }),
    close: async () => {
      failures.close();
      redis.disconnect();
      await sql.end({ timeout: 5 });
    },
  };
}

/**
 * Failures are logged once per change of state. The database is probed while it is down so that its
 * recovery is logged even when no request comes; a probe that fails for a new reason (refused, then
 * wrong password) reports that change.
 */
export function createFailureLog(logger: Logger, metrics: Metrics, sql: Sql): FailureLog {
  const failures: FailureLog = new FailureLog({
    logger,
    metrics,
    probes: {
      database: async () => {
        try {
          await pingDatabase(sql);
        } catch (error) {
          failures.failed('database', describeDatabaseFailure(error));
          throw error;
        }
      },
    },
  });
  return failures;
}
