import { describeDatabaseFailure, pingDatabase, type Sql } from '@firebreak/db';
import type { FailureLog } from '@firebreak/metrics';
import type { Redis } from '@firebreak/queue';
import type { Readiness } from '@firebreak/schema';

export interface ReadinessProbeOptions {
  sql: Sql;
  redis: Redis;
  /** Told what the database check finds (the store's clients report their own state). */
  failures?: FailureLog;
  now?: () => number;
  databaseTimeoutMs?: number;
  redisTimeoutMs?: number;
  /** The store's answer may be this old (at most one second, docs/api.md#health). */
  redisCacheMs?: number;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `/ready`: the database is asked on every call (docs/api.md#health); the store's state is cached for up to a
 * second so a load balancer polling readiness does not turn into a Redis load of its own.
 */
export function createReadinessProbe(options: ReadinessProbeOptions): () => Promise<Readiness> {
  const now = options.now ?? Date.now;
  const redisCacheMs = options.redisCacheMs ?? 1000;
  let redisCache: { ok: boolean; at: number } | undefined;
  let redisInFlight: Promise<boolean> | undefined;

  async function redisOk(): Promise<boolean> {
    if (redisCache && now() - redisCache.at < redisCacheMs) return redisCache.ok;
    redisInFlight ??= withTimeout(options.redis.ping(), options.redisTimeoutMs ?? 500)
      .then(() => true)
      .catch(() => false)
      .then((ok) => {
        redisCache = { ok, at: now() };
        redisInFlight = undefined;
        return ok;
      });
    return redisInFlight;
  }

  async function databaseOk(): Promise<boolean> {
    try {
      await withTimeout(pingDatabase(options.sql), options.databaseTimeoutMs ?? 2000);
      options.failures?.recovered('database');
      return true;
    } catch (error) {
      options.failures?.failed('database', describeDatabaseFailure(error));
      return false;
    }
  }

  return async () => {
    const [database, redis] = await Promise.all([databaseOk(), redisOk()]);
    return {
      status: !database ? 'error' : redis ? 'ok' : 'degraded',
      database: database ? 'ok' : 'error',
      redis: redis ? 'ok' : 'error',
    };
  };
}
