import type { Logger } from '@firebreak/logger';
import { FailureLog } from '@firebreak/metrics';
import { Redis, type RedisOptions } from 'ioredis';
import {
  describeRedisFailure,
  isConsequenceOfLostConnection,
  isDroppedConnection,
  type RedisFailure,
  readServerRefusal,
} from './redis-failure';

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
// within seconds (a Sentinel failover takes 10–30 s), and a dead store must not be hammered.
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
 * the service starts and serves without it (docs/architecture.md#degraded-operation), and reconnects when it
 * returns. Its failures and recovery go to `failures` (logged once per change of state), else, for a bare
 * client, to `logger` once per outage.
 */
export function createRedis(config: RedisConfig, role: RedisRole, report?: Logger | FailureLog): Redis {
  const options = redisOptions(config, role);
  const client = options.sentinels ? new Redis(options) : new Redis(config.url, options);
  watchConnection(client, role, report);
  client.connect().catch(() => {
    // The error event below reports it; the retry strategy keeps trying.
  });
  return client;
}

let clientCount = 0;

function watchConnection(client: Redis, role: RedisRole, report: Logger | FailureLog | undefined): void {
  const failures = report instanceof FailureLog ? report : undefined;
  const logger = report instanceof FailureLog ? undefined : report;
  const source = `${role}-${++clientCount}`;
  let down = false;
  const reportFailure = (failure: RedisFailure) => {
    failures?.failed('redis', failure, source);
    if (!down) logger?.error({ reason: failure.reason, ...failure.fields }, failure.line);
    down = true;
  };
  client.on('error', (error: Error) => {
    // A command refused because the connection is gone: the connection's own error says why.
    if (isConsequenceOfLostConnection(error)) return;
    // Behind Sentinel the address of the moment is not in the options: no second guess there.
    if (!isDroppedConnection(error) || client.options.sentinels?.length) {
      reportFailure(describeRedisFailure(error));
      return;
    }
    // The server hung up at once. A server at maxclients says why before it does, but the client is
    // writing by then and sees only EPIPE: listen to what the server says to a fresh connection.
    const { host, port } = client.options;
    void readServerRefusal(host ?? '127.0.0.1', port ?? 6379).then((refusal) =>
      reportFailure(describeRedisFailure(refusal ?? error)),
    );
  });
  client.on('ready', () => {
    failures?.recovered('redis', source);
    if (down) logger?.info('redis: connection restored');
    down = false;
  });
}
