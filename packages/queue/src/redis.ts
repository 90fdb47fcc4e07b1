import type { Logger } from '@firebreak/logger';
import { Redis, type RedisOptions } from 'ioredis';

export interface RedisConfig {
  url: string;
  password?: string | undefined;
  sentinels?: Array<{ host: string; port: number }> | undefined;
  sentinelMaster?: string | undefined;
}

/**
 * `command`: the API's own client (readiness, rate limits). Commands fail at once while the store is
 * unreachable instead of queueing in memory, so a request never waits on Redis.
 * `blocking`: BullMQ workers' connections, which must retry forever (BullMQ requires
 * `maxRetriesPerRequest: null`).
 */
export type RedisRole = 'command' | 'blocking';

// Reconnect forever, backing off to one attempt every 2 s: the store coming back must be noticed
// within seconds (spec §8: failover takes 10–30 s), and a dead store must not be hammered.
const retryStrategy = (attempt: number) => Math.min(attempt * 200, 2000);

export function redisOptions(config: RedisConfig, role: RedisRole): RedisOptions {
  const common: RedisOptions = {
    lazyConnect: true,
    retryStrategy,
    connectTimeout: 5000,
    maxRetriesPerRequest: role === 'blocking' ? null : 1,
    enableOfflineQueue: role === 'blocking',
    // A failover promotes a replica; READONLY errors mean we are still talking to the old primary.
    reconnectOnError: (error) => error.message.startsWith('READONLY'),
  };
  if (config.password !== undefined) common.password = config.password;
  if (config.sentinels && config.sentinels.length > 0) {
    return {
      ...common,
      sentinels: config.sentinels,
      name: config.sentinelMaster ?? 'mymaster',
      sentinelRetryStrategy: retryStrategy,
      // Sentinels commonly share the data nodes' password.
      ...(config.password !== undefined ? { sentinelPassword: config.password } : {}),
    };
  }
  return common;
}

/**
 * Creates a client and starts connecting in the background. Never throws for an unreachable store:
 * the service starts and serves without it (spec §1), and reconnects when it returns.
 */
export function createRedis(config: RedisConfig, role: RedisRole, logger?: Logger): Redis {
  const options = redisOptions(config, role);
  const client = options.sentinels ? new Redis(options) : new Redis(config.url, options);
  watchConnection(client, logger);
  client.connect().catch(() => {
    // The error event below reports it; the retry strategy keeps trying.
  });
  return client;
}

/** Logs each change between reachable and unreachable once, not once per retry. */
function watchConnection(client: Redis, logger: Logger | undefined): void {
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger?.error(
      { err: { message: error.message, code: (error as { code?: string }).code } },
      `redis: unavailable: ${error.message}`,
    );
  });
  client.on('ready', () => {
    if (down) logger?.info('redis: connection restored');
    down = false;
  });
}
