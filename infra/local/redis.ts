// The store of the split deployment: a Redis primary and a replica, both with append-only
// persistence, watched by Sentinel(s) that the apps ask for the primary (KV_SENTINEL_ADDRS).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type LogSink, ManagedProcess, waitUntil } from './processes';

export const SENTINEL_MASTER = 'mymaster';

export interface StoreNodes {
  primary: ManagedProcess;
  replica: ManagedProcess;
  sentinels: ManagedProcess[];
  ports: { primary: number; replica: number; sentinels: number[] };
  /** The one password of the data nodes and the Sentinels (KV_PASSWORD). */
  password: string;
}

interface StoreOptions {
  dataDir: string;
  password: string;
  ports: { primary: number; replica: number; sentinels: number[] };
  log: LogSink;
}

/**
 * Configuration files (mode 600: they hold the password) are written on every start, because the
 * ports are picked anew each time; the data (appendonlydir) is kept. Passwords are in the files,
 * not on the command line, where `ps` would show them.
 */
export async function startStore(options: StoreOptions): Promise<StoreNodes> {
  const { ports, password } = options;
  const primary = startNode('redis-primary', options, ports.primary);
  const started: ManagedProcess[] = [primary];
  try {
    await waitForPing(primary, ports.primary, password);
    const replica = startNode('redis-replica', options, ports.replica, ports.primary);
    started.push(replica);
    await waitUntil(
      'the replica to sync with the primary',
      () =>
        withRedis(ports.replica, password, async (r) =>
          (await r.info('replication')).includes('master_link_status:up'),
        ),
      { abortIf: () => (replica.running ? undefined : 'redis-replica exited') },
    );
    const sentinels = ports.sentinels.map((port, i) =>
      startSentinel(`sentinel-${i + 1}`, options, port, ports.sentinels.length),
    );
    started.push(...sentinels);
    for (const [i, sentinel] of sentinels.entries()) {
      await waitUntil(
        `${sentinel.name} to name the primary`,
        () =>
          withRedis(ports.sentinels[i]!, password, async (r) => {
            const address = (await r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_MASTER)) as
              | string[]
              | null;
            return address?.[1] === String(ports.primary);
          }),
        { abortIf: () => (sentinel.running ? undefined : `${sentinel.name} exited`) },
      );
    }
    return { primary, replica, sentinels, ports, password };
  } catch (error) {
    for (const node of started.reverse()) await node.stop(5_000);
    throw error;
  }
}

function startNode(name: string, options: StoreOptions, port: number, replicaOf?: number): ManagedProcess {
  const dir = join(options.dataDir, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lines = [
    `port ${port}`,
    'bind 127.0.0.1',
    `dir ${dir}`,
    // Durability: the append-only file, fsync once a second, on the replica too, so a promoted replica is
    // as durable as the primary. No RDB snapshots besides.
    'appendonly yes',
    'appendfsync everysec',
    'save ""',
    // Every node needs both: a replica authenticates to its primary, and either may become primary.
    `requirepass ${options.password}`,
    `masterauth ${options.password}`,
    'logfile ""',
    ...(replicaOf ? [`replicaof 127.0.0.1 ${replicaOf}`] : []),
  ];
  const conf = join(dir, 'redis.conf');
  writeFileSync(conf, `${lines.join('\n')}\n`, { mode: 0o600 });
  return new ManagedProcess(name, 'redis-server', [conf], { cwd: dir, env: process.env, log: options.log });
}

function startSentinel(name: string, options: StoreOptions, port: number, count: number): ManagedProcess {
  const dir = join(options.dataDir, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A majority of the Sentinels must agree that the primary is down.
  const quorum = Math.floor(count / 2) + 1;
  const lines = [
    `port ${port}`,
    'bind 127.0.0.1',
    `dir ${dir}`,
    'logfile ""',
    // The apps use one password for the data nodes and the Sentinels (packages/queue).
    `requirepass ${options.password}`,
    `sentinel sentinel-pass ${options.password}`,
    `sentinel monitor ${SENTINEL_MASTER} 127.0.0.1 ${options.ports.primary} ${quorum}`,
    `sentinel auth-pass ${SENTINEL_MASTER} ${options.password}`,
    // As in the compose example: 5 s to declare the primary down, then the election (a failover
    // completes within 10-30 s: docs/runbooks/store-failover.md).
    `sentinel down-after-milliseconds ${SENTINEL_MASTER} 5000`,
    `sentinel failover-timeout ${SENTINEL_MASTER} 30000`,
  ];
  // Sentinel rewrites this file as it learns (replicas, a new primary): it must be writable.
  const conf = join(dir, 'sentinel.conf');
  writeFileSync(conf, `${lines.join('\n')}\n`, { mode: 0o600 });
  return new ManagedProcess(name, 'redis-server', [conf, '--sentinel'], {
    cwd: dir,
    env: process.env,
    log: options.log,
  });
}

async function waitForPing(node: ManagedProcess, port: number, password: string): Promise<void> {
  await waitUntil(
    `${node.name} to answer`,
    () => withRedis(port, password, async (r) => (await r.ping()) === 'PONG'),
    {
      abortIf: () => (node.running ? undefined : `${node.name} exited`),
    },
  );
}

/** One short connection, no retries: for readiness checks. */
export async function withRedis<T>(
  port: number,
  password: string,
  use: (redis: Redis) => Promise<T>,
): Promise<T> {
  const redis = new Redis(port, '127.0.0.1', {
    password,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {}); // refused while starting: the caller retries
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}
