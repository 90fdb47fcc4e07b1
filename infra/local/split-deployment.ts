// The split deployment on one machine (docs/api.md#processes): a private PostgreSQL (or, with
// `postgresFailover`, a pg_auto_failover formation of a monitor, a primary and a standby), Redis
// primary + replica (append-only) watched by Sentinel, migrations as their own step, then ingest, api,
// chat and worker as four processes (or several replicas of each), and nginx in front with the shipped
// routing. Loopback and private ports only: the machine's shared PostgreSQL (5432) and Redis (6379) are
// never used.
//
// `pnpm start:split` runs it (infra/local/start.ts); tests/split-deployment.test.ts drives an alert
// through it.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import getPort from 'get-port';
import {
  APPS,
  type AppName,
  countUsers,
  repoRoot,
  runMigrations,
  startApp,
  waitForReady,
  watchForPrintedAdmin,
  withoutOwnSettings,
} from './apps';
import { startProxy } from './nginx';
import { type FailoverDatabase, startFailoverDatabase } from './pg-auto-failover';
import { type PrivateDatabase, startDatabase } from './postgres';
import { type LogSink, type ManagedProcess, waitUntil } from './processes';
import { SENTINEL_MASTER, type StoreNodes, startStore } from './redis';

export interface SplitDeploymentOptions {
  /** Data of PostgreSQL and Redis, generated passwords, nginx's prefix. Kept between starts. */
  dataDir?: string;
  /** nginx's port (on 127.0.0.1). Default: a free one. */
  port?: number;
  /** How many Sentinels watch the primary (default 1; see infra/README.md for why). */
  sentinels?: number;
  /**
   * PostgreSQL as a pg_auto_failover formation (monitor, primary, synchronous standby) instead of one
   * server; DATABASE_URL then lists both nodes. `fast`: timings shortened for one machine.
   */
  postgresFailover?: boolean | 'fast';
  /** Processes per app (default 1 each); nginx balances over an app's replicas. */
  replicas?: Partial<Record<AppName, number>>;
  /** More environment for the apps (CHAT_BOT_TOKEN, CHAT_API_URL, AI_*, LOG_LEVEL…). */
  appEnv?: Record<string, string>;
  /** Build apps/web/dist when it is missing, so the API serves the UI (default true). */
  buildWebUi?: boolean;
  /** Where every process's lines go. Default: stdout, prefixed with the process name. */
  log?: LogSink;
}

export interface StoppedProcess {
  name: string;
  /** Exited by itself after the stop signal with code 0 (PostgreSQL: removed its lock file). */
  clean: boolean;
  detail: string;
}

export interface SplitDeployment {
  /** The public URL: nginx on loopback. */
  url: string;
  /**
   * The first admin. On an empty database without BOOTSTRAP_ADMIN_*, the app that creates it prints
   * the generated login once (as `pnpm start` does); this is that login. Later starts: undefined.
   */
  admin: { email: string; password: string | undefined } | undefined;
  /** Each app's (first replica's) port; `database`: the single server's, or the formation's primary's at start. */
  ports: { proxy: number; database: number } & Record<AppName, number>;
  store: StoreNodes;
  /** Each app's first replica. */
  apps: Record<AppName, ManagedProcess>;
  /** Every replica of each app, with its port. */
  replicas: Record<AppName, Array<{ process: ManagedProcess; port: number }>>;
  /** The pg_auto_failover formation, with `postgresFailover`. */
  failover: FailoverDatabase | undefined;
  /** What the apps use as DATABASE_URL. */
  databaseUrl: string;
  proxy: ManagedProcess;
  /** Stops everything in reverse order of start; says how each process ended. */
  stop(): Promise<StoppedProcess[]>;
}

export const defaultLog: LogSink = (name, line) => process.stdout.write(`[${name.padEnd(13)}] ${line}\n`);

export async function startSplitDeployment(options: SplitDeploymentOptions = {}): Promise<SplitDeployment> {
  const dataDir = resolve(options.dataDir ?? join(repoRoot, '.data/split'));
  const log = options.log ?? defaultLog;
  mkdirSync(dataDir, { recursive: true });
  if (options.buildWebUi ?? true) ensureWebUi(log);

  const secrets = {
    postgres: secretFile(dataDir, 'postgres.password'),
    redis: secretFile(dataDir, 'redis.password'),
  };
  const free = () => getPort({ host: '127.0.0.1' });
  const counts = Object.fromEntries(APPS.map((app) => [app, options.replicas?.[app] ?? 1])) as Record<
    AppName,
    number
  >;
  const appPorts = {} as Record<AppName, number[]>;
  for (const app of APPS) appPorts[app] = await Promise.all(Array.from({ length: counts[app] }, free));
  const ports = {
    proxy: options.port ?? (await free()),
    database: await free(),
    store: {
      primary: await free(),
      replica: await free(),
      sentinels: await Promise.all(Array.from({ length: options.sentinels ?? 1 }, free)),
    },
  };

  // Everything started so far, to stop in reverse order (also when a later step fails).
  const stops: Array<() => Promise<StoppedProcess[]>> = [];
  const stopAll = async () => {
    const report: StoppedProcess[] = [];
    for (const stop of stops.splice(0).reverse()) report.push(...(await stop()));
    return report;
  };
  try {
    log('split', `data directory ${dataDir}`);
    let database: { url: string; port: number };
    let failover: FailoverDatabase | undefined;
    if (options.postgresFailover) {
      // The server's user (postgres, when we are root) must be able to enter the data directory.
      chmodSync(dataDir, 0o755);
      failover = await startFailoverDatabase({
        dataDir,
        log,
        fastFailover: options.postgresFailover === 'fast',
      });
      const formation = failover;
      stops.push(async () => {
        const report: StoppedProcess[] = [];
        for (const child of await formation.stopOrder()) report.push(await stopped(child));
        return report;
      });
      database = { url: formation.url, port: formation.ports[(await formation.primary()) ?? 'pg-a'] };
    } else {
      const single = await startDatabase({
        dataDir,
        port: ports.database,
        password: secrets.postgres.value,
        log,
      });
      stops.push(async () => [await stopDatabase(single, dataDir)]);
      database = single;
    }

    const store = await startStore({
      dataDir,
      password: secrets.redis.value,
      ports: ports.store,
      log,
    });
    stops.push(async () => {
      // Sentinels first (no failover while the data nodes stop), then the replica, then the primary.
      const report = await Promise.all(store.sentinels.map(stopped));
      report.push(await stopped(store.replica), await stopped(store.primary));
      return report;
    });

    // Migrations as their own step, exactly as a deployment runs them; the apps start after it.
    await runMigrations(database.url, log);

    const url = `http://127.0.0.1:${ports.proxy}`;
    const firstStart = (await countUsers(database.url)) === 0;
    const printedAdmin = watchForPrintedAdmin(log);
    const appEnv: NodeJS.ProcessEnv = {
      ...withoutOwnSettings(process.env),
      NODE_ENV: 'production',
      // Where the app that creates the first admin writes its generated password (first-admin.ts).
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      KV_SENTINEL_ADDRS: ports.store.sentinels.map((port) => `127.0.0.1:${port}`).join(','),
      KV_SENTINEL_MASTER: SENTINEL_MASTER,
      KV_PASSWORD: secrets.redis.value,
      TRUST_PROXY: 'true',
      // Loopback only: the apps are reached through nginx, never around it.
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DB_MAX_OPEN_CONNS: '10',
      ...options.appEnv,
    };
    const replicas = Object.fromEntries(
      APPS.map((app) => [
        app,
        appPorts[app].map((port, i) => ({
          port,
          process: startApp(
            app,
            { ...appEnv, PORT: String(port) },
            printedAdmin.log,
            counts[app] > 1 ? i + 1 : 0,
          ),
        })),
      ]),
    ) as SplitDeployment['replicas'];
    const every = (names: readonly AppName[]) => names.flatMap((app) => replicas[app]);
    stops.push(async () => {
      // The routed apps first (nothing new comes in), then the workers that run what they queued.
      const routed = await Promise.all(every(['ingest', 'api', 'chat']).map((r) => stopped(r.process)));
      return [...routed, ...(await Promise.all(every(['worker']).map((r) => stopped(r.process))))];
    });
    await Promise.all(every(APPS).map((r) => waitForReady(r.process, r.port)));
    const apps = Object.fromEntries(APPS.map((app) => [app, replicas[app][0]!.process])) as Record<
      AppName,
      ManagedProcess
    >;
    const configuredAdmin = options.appEnv?.BOOTSTRAP_ADMIN_EMAIL;
    const admin = !firstStart
      ? undefined
      : configuredAdmin
        ? { email: configuredAdmin, password: undefined }
        : await waitUntil("the first admin's login in the apps' output", async () => printedAdmin.admin(), {
            timeoutMs: 10_000,
          });

    const proxy = startProxy({
      prefix: join(dataDir, 'nginx'),
      ports: { listen: ports.proxy, ingest: appPorts.ingest, api: appPorts.api, chat: appPorts.chat },
      log,
    });
    stops.push(async () => [await stopped(proxy)]);
    await waitUntil('nginx to answer /health', async () => (await fetch(`${url}/health`)).ok, {
      timeoutMs: 15_000,
      abortIf: () => (proxy.running ? undefined : 'nginx exited'),
    });

    const firstPorts = Object.fromEntries(APPS.map((app) => [app, appPorts[app][0]!])) as Record<
      AppName,
      number
    >;
    return {
      url,
      admin,
      ports: { proxy: ports.proxy, database: database.port, ...firstPorts },
      store,
      apps,
      replicas,
      failover,
      databaseUrl: database.url,
      proxy,
      stop: stopAll,
    };
  } catch (error) {
    log('split', `start failed: ${error instanceof Error ? error.message : String(error)}; stopping`);
    await stopAll();
    throw error;
  }
}

async function stopped(child: ManagedProcess): Promise<StoppedProcess> {
  const code = await child.stop();
  const detail = child.signal ? `ended by ${child.signal}` : `exit code ${code}`;
  return { name: child.name, clean: code === 0, detail };
}

async function stopDatabase(database: PrivateDatabase, dataDir: string): Promise<StoppedProcess> {
  await database.stop();
  // PostgreSQL removes its lock file at the end of a clean shutdown, and only then.
  const clean = !existsSync(join(dataDir, 'postgres', 'postmaster.pid'));
  return { name: 'postgres', clean, detail: clean ? 'shut down' : 'postmaster.pid left behind' };
}

/** The API serves apps/web/dist when it exists; build it once so `/` is the UI. */
function ensureWebUi(log: LogSink): void {
  if (existsSync(join(repoRoot, 'apps/web/dist/index.html'))) return;
  log('split', 'building the web UI (apps/web/dist is missing)');
  // Output only on failure (execFileSync's error carries it).
  execFileSync('pnpm', ['--filter', '@firebreak/web', 'build'], { cwd: repoRoot, stdio: 'pipe' });
}

/** A generated secret kept in the data directory (mode 600), so a second start finds the same one. */
function secretFile(dataDir: string, name: string): { value: string; createdNow: boolean } {
  const file = join(dataDir, name);
  if (existsSync(file)) return { value: readFileSync(file, 'utf8').trim(), createdNow: false };
  // base64url: [A-Za-z0-9_-], safe in redis.conf and in a URL.
  const value = randomBytes(24).toString('base64url');
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return { value, createdNow: true };
}
