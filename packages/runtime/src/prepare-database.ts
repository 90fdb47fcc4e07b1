import { isDatabaseUnavailable, migrate } from '@firebreak/db';
import { type BootstrappedAdmin, bootstrapAdmin } from '@firebreak/services';
import type { Runtime } from './runtime';

/**
 * Migrations, then the first admin. When the database cannot be reached yet, the process keeps
 * serving (every database-backed request answers 500 `database_unavailable`) and tries again every
 * few seconds, so an API started before its database recovers by itself.
 */
export async function prepareDatabase(
  runtime: Runtime,
  onAdmin: (admin: BootstrappedAdmin) => void,
  retryMs = 5000,
): Promise<{ stop(): void; done: Promise<void> }> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });

  const attempt = async (): Promise<void> => {
    try {
      const { applied } = await migrate(runtime.sql);
      for (const m of applied) runtime.logger.info({ version: m.version, name: m.name }, 'migration applied');
      const admin = await bootstrapAdmin(runtime.ctx, runtime.config.bootstrapAdmin);
      if (admin) onAdmin(admin);
      finish();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || stopped) throw error;
      runtime.logger.error(
        { cause: { code: (error as { code?: string }).code, message: (error as Error).message } },
        `database unavailable at start-up, retrying in ${retryMs / 1000} s`,
      );
      timer = setTimeout(() => void attempt().catch(fail), retryMs);
    }
  };
  const fail = (error: unknown) => {
    runtime.logger.fatal({ err: error }, 'database preparation failed');
    process.exitCode = 1;
  };
  await attempt();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
    done,
  };
}
