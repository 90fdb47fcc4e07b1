// The app processes of the split deployment and the migration step before them: the command lines
// (shared with the container image and the Kubernetes manifests), start-up, readiness, first admin.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import postgres from 'postgres';
import { type LogSink, ManagedProcess, waitUntil } from './processes';

export const repoRoot = resolve(import.meta.dirname, '../..');

/** The four apps, their public paths (through nginx) and default ports: docs/api.md#processes. */
export const APPS = ['ingest', 'api', 'chat', 'worker'] as const;
export type AppName = (typeof APPS)[number];

/**
 * The command lines, the same as in the container image (infra/Dockerfile's CMD) and the Kubernetes
 * manifests: one node process each, which receives SIGTERM itself. The migration step is what
 * `pnpm db:migrate` runs (packages/db "migrate"), without pnpm around it.
 */
export const APP_COMMAND = ['node', '--import', 'tsx', 'src/main.ts'] as const;
export const appWorkingDir = (app: AppName) => `apps/${app}`;
export const MIGRATE_COMMAND = ['node', '--import', 'tsx', 'src/migrate-cli.ts'] as const;
export const MIGRATE_WORKING_DIR = 'packages/db';

/**
 * The same command line as the container image: `node --import tsx src/main.ts` in the app's folder.
 * `replica` (from 1) names one of several (`ingest-2`); 0 for an app that runs alone.
 */
export function startApp(app: AppName, env: NodeJS.ProcessEnv, log: LogSink, replica = 0): ManagedProcess {
  const [, ...args] = APP_COMMAND;
  return new ManagedProcess(replica ? `${app}-${replica}` : app, process.execPath, args, {
    cwd: join(repoRoot, appWorkingDir(app)),
    env,
    log,
  });
}

/** Ready as a load balancer means it: `/ready` answers 200 with the database and the store ok. */
export async function waitForReady(app: ManagedProcess, port: number): Promise<void> {
  await waitUntil(
    `${app.name} to be ready on port ${port}`,
    async () => {
      const response = await fetch(`http://127.0.0.1:${port}/ready`);
      const body = (await response.json()) as { status?: string };
      return response.ok && body.status === 'ok';
    },
    { timeoutMs: 120_000, intervalMs: 250, abortIf: () => (app.running ? undefined : `${app.name} exited`) },
  );
}

export async function runMigrations(databaseUrl: string, log: LogSink): Promise<void> {
  const env = { ...withoutOwnSettings(process.env), DATABASE_URL: databaseUrl };
  const [, ...args] = MIGRATE_COMMAND;
  const cwd = join(repoRoot, MIGRATE_WORKING_DIR);
  const migrate = new ManagedProcess('migrate', process.execPath, args, { cwd, env, log, oneShot: true });
  const code = await migrate.exited();
  if (code !== 0) throw new Error(`the migrations failed (${migrate.signal ?? `exit code ${code}`})`);
}

export async function countUsers(databaseUrl: string): Promise<number> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<Array<{ count: number }>>`select count(*)::int as count from users`;
    return row?.count ?? 0;
  } finally {
    await sql.end();
  }
}

/**
 * Passes the apps' lines on and remembers the generated login one of them announces (run-app.ts): the
 * app prints only the path of the 0600 file that holds the password, and this script, which runs at
 * the operator's own terminal like `pnpm start`, reads it from there.
 */
export function watchForPrintedAdmin(log: LogSink): {
  log: LogSink;
  admin(): { email: string; password: string } | undefined;
} {
  let admin: { email: string; password: string } | undefined;
  return {
    log: (name, line) => {
      const printed = /^First admin: (\S+), password in (\S+)/.exec(line);
      if (printed) {
        admin = { email: printed[1]!, password: readFileSync(printed[2]!, 'utf8').trim() };
      }
      log(name, line);
    },
    admin: () => admin,
  };
}

/** Settings this script decides must not leak in from the caller's shell (a REDIS_URL, a *_FILE). */
export function withoutOwnSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = /^(PORT|HOST|DATABASE_URL|REDIS_URL|KV_PASSWORD|KV_SENTINEL_\w+|BOOTSTRAP_ADMIN_\w+)(_FILE)?$/;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !own.test(name)));
}
