import { describeDatabaseFailure, isDatabaseUnavailable, migrate } from '@firebreak/db';
import { type BootstrappedAdmin, bootstrapAdmin } from '@firebreak/services';
import { checkPoolSize } from './pool-size';
import type { Runtime } from './runtime';

export interface DatabasePreparation {
  stop(): void;
  /** Resolves once prepared; rejects when a later attempt finds a reason not to run (the caller exits). */
  done: Promise<void>;
}

/**
 * The pool-size check, migrations, then the first admin. When the database cannot be reached yet,
 * the process keeps serving (every database-backed request answers 500 `database_unavailable`) and
 * tries again every few seconds, so an API started before its database recovers by itself. Any other
 * error of the first attempt is thrown (start-up fails).
 */
export async function prepareDatabase(
  runtime: Runtime,
  /** Hands the first admin's login over; runs before the admin is committed (bootstrapAdmin). */
  onAdmin: (admin: BootstrappedAdmin) => void | Promise<void>,
  retryMs = 5000,
): Promise<DatabasePreparation> {
  const { logger, ctx } = runtime;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let settle: { resolve(): void; reject(error: unknown): void } = { resolve() {}, reject() {} };
  const done = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  done.catch(() => {}); // a caller that awaits only the first attempt must not see an unhandled rejection

  const attempt = async (first: boolean): Promise<void> => {
    try {
      await checkPoolSize(runtime.sql, runtime.config.dbMaxOpenConns, logger);
      const { applied } = await migrate(runtime.sql);
      for (const m of applied) logger.info({ version: m.version, name: m.name }, 'migration applied');
      await bootstrapAdmin(ctx, runtime.config.bootstrapAdmin, onAdmin);
      ctx.failures.recovered('database');
      settle.resolve();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || stopped) {
        if (first) throw error;
        settle.reject(error);
        return;
      }
      ctx.failures.failed('database', describeDatabaseFailure(error));
      if (first) logger.warn(`database unavailable at start-up, retrying every ${retryMs / 1000} s`);
      timer = setTimeout(() => void attempt(false), retryMs);
    }
  };
  await attempt(true);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
    done,
  };
}
