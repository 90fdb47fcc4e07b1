// The database of the split deployment with `--pg-failover`: a pg_auto_failover formation on this
// machine (Debian's postgresql-15-auto-failover and pg-auto-failover-cli, which scripts/setup.sh
// installs): a monitor and two PostgreSQL nodes, pg-a and pg-b, the second a synchronous standby of
// the first. When the primary dies the monitor promotes the standby, and the apps follow it through
// the two hosts of DATABASE_URL (docs/production-topology.md). Loopback only, like the rest.
import { chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_RELOCATION_ROOT,
  placeDataDir,
  runningPostmaster,
  serverUser,
} from '@firebreak/embedded-postgres';
import getPort from 'get-port';
import postgres from 'postgres';
import { type LogSink, ManagedProcess, waitUntil } from './processes';

export const FAILOVER_NODES = ['pg-a', 'pg-b'] as const;
export type FailoverNode = (typeof FAILOVER_NODES)[number];
export const DATABASE_NAME = 'firebreak';

/** PostgreSQL 15's programs, where Debian installs them (pg_autoctl runs pg_ctl from here). */
const PG_BIN = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

export interface FailoverDatabase {
  /** Both nodes, in order, for a read-write session: what the apps and the migration step use. */
  url: string;
  ports: { monitor: number } & Record<FailoverNode, number>;
  monitor: ManagedProcess;
  nodes: Record<FailoverNode, ManagedProcess>;
  /** The node that takes writes now, asked of the nodes themselves; undefined while none does. */
  primary(): Promise<FailoverNode | undefined>;
  /** The keepers and the monitor, in the order to stop them: the standby, the primary, the monitor. */
  stopOrder(): Promise<ManagedProcess[]>;
}

export interface FailoverOptions {
  dataDir: string;
  log: LogSink;
  /**
   * pg_auto_failover's timings shortened for one machine (a failover in about 20 s instead of about
   * 50 s). Its defaults suit nodes on separate machines and networks: keep them there.
   */
  fastFailover?: boolean;
}

/** Starts (creating on the first start) the monitor, then pg-a, then pg-b, each once the last is up. */
export async function startFailoverDatabase(options: FailoverOptions): Promise<FailoverDatabase> {
  const user = serverUser();
  // As for the single server: under a directory closed to the server's user (a 0700 `mktemp -d`,
  // /root), the formation lives in /var/lib/firebreak, linked from where it was asked for.
  const placed = placeDataDir(user, join(options.dataDir, 'pg-auto-failover'), DEFAULT_RELOCATION_ROOT);
  const root = placed.path;
  if (placed.relocatedFrom)
    options.log('pg-monitor', `the ${user?.name} user cannot enter ${options.dataDir}: formation in ${root}`);
  const run = runner(root, user, options.log);
  const ports = await stablePorts(root);
  const monitorUrl = `postgres://autoctl_node@127.0.0.1:${ports.monitor}/pg_auto_failover?sslmode=disable`;
  const started: ManagedProcess[] = [];
  try {
    const monitorDir = join(root, 'monitor');
    if (!existsSync(join(monitorDir, 'PG_VERSION'))) {
      await run.once('monitor-init', [
        'create',
        'monitor',
        '--pgdata',
        monitorDir,
        '--pgport',
        String(ports.monitor),
        ...COMMON,
      ]);
      await run.once('monitor-init', [
        'config',
        'set',
        '--pgdata',
        monitorDir,
        'postgresql.listen_addresses',
        '127.0.0.1',
      ]);
      fitToSharedMachine(monitorDir);
    }
    const monitor = run.service('pg-monitor', monitorDir);
    started.push(monitor);
    await waitUntil(
      'the pg_auto_failover monitor',
      () => query(ports.monitor, 'pg_auto_failover', 'select 1'),
      {
        abortIf: () => (monitor.running ? undefined : 'pg-monitor exited'),
      },
    );
    if (options.fastFailover) await shortenMonitorTimings(ports.monitor);

    const nodes = {} as Record<FailoverNode, ManagedProcess>;
    for (const name of FAILOVER_NODES) {
      const nodeDir = join(root, name);
      const created = existsSync(join(nodeDir, 'PG_VERSION'));
      if (!created) {
        await run.once(`${name}-init`, [
          'create',
          'postgres',
          '--pgdata',
          nodeDir,
          '--pgport',
          String(ports[name]),
          '--listen',
          '127.0.0.1',
          '--name',
          name,
          '--dbname',
          DATABASE_NAME,
          '--monitor',
          monitorUrl,
          ...COMMON,
        ]);
        fitToSharedMachine(nodeDir);
      }
      if (options.fastFailover) {
        // A primary that loses both the monitor and its standby demotes itself after this long, which
        // must come before the monitor lets the standby take writes (unhealthy + demote timeouts).
        await run.once(`${name}-init`, [
          'config',
          'set',
          '--pgdata',
          nodeDir,
          'timeout.network_partition_timeout',
          '8',
        ]);
      }
      nodes[name] = run.service(name, nodeDir);
      started.push(nodes[name]);
      // A new node is copied from the one before it, which must be up first. Nodes that exist start
      // together: the first alone could be promoted over the second while it waits.
      if (!created)
        await settled(ports.monitor, FAILOVER_NODES.slice(0, FAILOVER_NODES.indexOf(name) + 1), started);
    }
    await settled(ports.monitor, FAILOVER_NODES, started);
    const primary = async () => {
      for (const name of FAILOVER_NODES) {
        const writable = await query(ports[name], DATABASE_NAME, WRITABLE).catch(() => undefined);
        if (writable?.[0]?.writable) return name;
      }
      return undefined;
    };
    return {
      url: `postgres://postgres@${FAILOVER_NODES.map((name) => `127.0.0.1:${ports[name]}`).join(',')}/${DATABASE_NAME}?target_session_attrs=read-write`,
      ports,
      monitor,
      nodes,
      primary,
      stopOrder: async () => {
        // The standby first, so the monitor does not promote it while the primary stops.
        const first = await primary();
        const rest = FAILOVER_NODES.filter((name) => name !== first);
        return [...rest.map((name) => nodes[name]), ...(first ? [nodes[first]] : []), monitor];
      },
    };
  } catch (error) {
    for (const child of started.reverse()) await child.stop(30_000);
    throw error;
  }
}

// Loopback, no TLS, trust: pg_auto_failover's own quick start, fit for a formation that nothing off
// this machine can reach. Production runs its failover manager with TLS and passwords.
const COMMON = ['--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--pgctl', join(PG_BIN, 'pg_ctl')];

const WRITABLE = `select not pg_is_in_recovery() and current_setting('transaction_read_only') = 'off' as writable`;

/** pg_autoctl as the server's user, its configuration and state under the formation's directory. */
function runner(root: string, user: ReturnType<typeof serverUser>, log: LogSink) {
  const env = {
    HOME: root,
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'share'),
    XDG_RUNTIME_DIR: join(root, 'run'),
    PATH: `${PG_BIN}:/usr/bin:/bin`,
    LC_ALL: 'C',
  };
  prepareTree(root, user);
  const start = (name: string, args: string[], oneShot: boolean) =>
    new ManagedProcess(name, 'pg_autoctl', args, {
      cwd: root,
      env,
      log,
      oneShot,
      // SIGINT: pg_autoctl's fast stop (PostgreSQL's fast shutdown), not a smart one that waits.
      stopSignal: 'SIGINT',
      ...(user ? { user } : {}),
    });
  return {
    once: async (name: string, args: string[]) => {
      const step = start(name, args, true);
      const code = await step.exited();
      if (code !== 0)
        throw new Error(
          `pg_autoctl ${args.slice(0, 2).join(' ')} failed (${step.signal ?? `exit code ${code}`})`,
        );
    },
    service: (name: string, pgdata: string) => {
      const pid = runningPostmaster(pgdata);
      if (pid !== undefined)
        throw new Error(
          `the PostgreSQL in ${pgdata} is already running (pid ${pid}): stop it first (kill -INT ${pid})`,
        );
      return start(name, ['run', '--pgdata', pgdata], false);
    },
  };
}

/**
 * pg_auto_failover sizes PostgreSQL for a machine of its own (a quarter of the memory as shared
 * buffers, 8 GB of WAL kept for standbys); three servers share this one. Appended after its include
 * line, so these win.
 */
function fitToSharedMachine(pgdata: string): void {
  const conf = join(pgdata, 'postgresql.conf');
  const marker = '# Firebreak local split deployment';
  if (readFileSync(conf, 'utf8').includes(marker)) return;
  const settings = [
    marker,
    "shared_buffers = '128MB'",
    "effective_cache_size = '1GB'",
    "work_mem = '4MB'",
    "maintenance_work_mem = '64MB'",
    "wal_keep_size = '512MB'",
    'max_connections = 200',
  ];
  writeFileSync(conf, `${readFileSync(conf, 'utf8')}\n${settings.join('\n')}\n`);
}

/** Health checks every second, a node unhealthy after 6 s, a promoted standby writable 6 s later. */
async function shortenMonitorTimings(port: number): Promise<void> {
  const settings: Record<string, number> = {
    'pgautofailover.health_check_period': 1000,
    'pgautofailover.health_check_timeout': 1000,
    'pgautofailover.health_check_max_retries': 1,
    'pgautofailover.health_check_retry_delay': 500,
    'pgautofailover.node_considered_unhealthy_timeout': 6000,
    'pgautofailover.primary_demote_timeout': 6000,
  };
  const sql = postgres({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'pg_auto_failover',
    max: 1,
    onnotice: () => {},
  });
  try {
    for (const [name, value] of Object.entries(settings))
      await sql.unsafe(`alter system set ${name} = ${value}`);
    await sql`select pg_reload_conf()`;
  } finally {
    await sql.end();
  }
}

/** Waits until the formation has `names` and each is where the monitor wants it, one of them primary. */
async function settled(
  monitorPort: number,
  names: readonly string[],
  running: ManagedProcess[],
): Promise<void> {
  await waitUntil(
    `the formation (${names.join(', ')}) to settle`,
    () => formationSettled(monitorPort, names),
    {
      timeoutMs: 120_000,
      intervalMs: 500,
      abortIf: () => running.find((child) => !child.running)?.name.concat(' exited'),
    },
  );
}

async function formationSettled(monitorPort: number, names: readonly string[]): Promise<boolean> {
  const rows = await query(
    monitorPort,
    'pg_auto_failover',
    'select nodename, reportedstate::text as reported, goalstate::text as goal from pgautofailover.node',
  );
  const states = rows as Array<{ nodename: string; reported: string; goal: string }>;
  const primaries = states.filter((node) => ['single', 'primary', 'wait_primary'].includes(node.reported));
  return (
    names.every((name) => states.some((node) => node.nodename === name)) &&
    states.every((node) => node.reported === node.goal) &&
    primaries.length === 1 &&
    states.every((node) => primaries.includes(node) || node.reported === 'secondary')
  );
}

async function query(port: number, database: string, text: string): Promise<Array<Record<string, unknown>>> {
  const sql = postgres({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database,
    max: 1,
    connect_timeout: 2,
    onnotice: () => {},
  });
  try {
    return await sql.unsafe(text);
  } finally {
    await sql.end();
  }
}

/**
 * The formation's ports are chosen on its first start and kept: the monitor knows each node by
 * host and port, and the nodes know the monitor's.
 */
async function stablePorts(root: string): Promise<{ monitor: number } & Record<FailoverNode, number>> {
  const file = join(root, 'ports.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const free = () => getPort({ host: '127.0.0.1' });
  const ports = { monitor: await free(), 'pg-a': await free(), 'pg-b': await free() };
  writeFileSync(file, `${JSON.stringify(ports)}\n`);
  return ports;
}

/** pg_autoctl's home, configuration, state and runtime directories, the server's user's own. */
function prepareTree(root: string, user: { uid: number; gid: number } | undefined): void {
  for (const dir of ['', 'config', 'share', 'run']) {
    const path = join(root, dir);
    mkdirSync(path, { recursive: true, mode: 0o700 });
    if (user) chownSync(path, user.uid, user.gid);
  }
}
