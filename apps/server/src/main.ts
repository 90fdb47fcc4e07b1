// `pnpm start`: the embedded default. One process, one port (default 8080), every app's routes and
// the worker; an embedded PostgreSQL without DATABASE_URL; Redis as found.
import { resolve } from 'node:path';
import { startChatWorker } from '@firebreak/chat';
import { loadConfigOrExit } from '@firebreak/config';
import { EmbeddedPostgresError } from '@firebreak/embedded-postgres';
import { scheduleOpenIntakeWarning } from '@firebreak/ingest';
import { createLogger } from '@firebreak/logger';
import { createRuntime, prepareDatabase, Shutdown, startServer } from '@firebreak/runtime';
import { startWorker } from '@firebreak/worker';
import { createServerApp } from './app';
import { startEmbeddedPostgres } from './embedded-postgres';
import { chooseStore } from './embedded-redis';

const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'firebreak' });
const shutdown = new Shutdown(logger);
shutdown.listen();

try {
  const dataDir = resolve(config.dataDir);
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const database = await startEmbeddedPostgres(dataDir, logger, { poolSize: config.dbMaxOpenConns });
    shutdown.add('embedded postgres', database.stop);
    databaseUrl = database.url;
  }
  const store = await chooseStore(config, logger);
  shutdown.add('embedded redis', store.stop);

  const runtime = createRuntime({ name: 'server', config, logger, databaseUrl, redisUrl: store.url });
  shutdown.add('clients', runtime.close);
  const database = await prepareDatabase(runtime, (admin) => {
    const line = admin.generatedPassword
      ? `First admin: ${admin.email} / ${admin.generatedPassword}   (shown once; keep it safe)`
      : `First admin: ${admin.email} (password from BOOTSTRAP_ADMIN_PASSWORD)`;
    process.stdout.write(`\n${line}\n`);
  });
  shutdown.add('database preparation', async () => database.stop());
  // Once per process: a fixed webhook path that takes alerts from anyone is worth a line at every start.
  void database.done.then(() => scheduleOpenIntakeWarning(runtime.ctx)).catch(() => {});
  // A database that was down at start can still turn out unusable when it answers (pool too large).
  database.done.catch(async (error: unknown) => {
    logger.fatal(
      { err: error },
      `start-up failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    await shutdown.run('start-up failed');
    process.exit(1);
  });

  const worker = await startWorker(runtime.ctx, {
    redis: runtime.redisConfig,
    ai: runtime.config.ai,
    paging: config.paging,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port ?? 8080}`,
  });
  shutdown.add('worker', () => worker.stop());
  const chatWorker = startChatWorker(runtime.ctx, {
    redis: runtime.redisConfig,
    chat: config.chat,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port ?? 8080}`,
  });
  shutdown.add('chat worker', () => chatWorker.stop());

  // apps/web/dist, from src/ (tsx) and from dist/ (the bundle) alike.
  const webRoot = resolve(import.meta.dirname, '../../web/dist');
  const app = createServerApp({ ctx: runtime.ctx, ready: runtime.ready, config, webRoot });
  const server = await startServer(app, config.port ?? 8080, logger, config.host);
  shutdown.add('http server', () => server.close());

  const storeNote = store.mode === 'degraded' ? ' (degraded: no Redis, background work waits)' : '';
  logger.info({ url: server.url, store: store.mode }, 'firebreak started');
  process.stdout.write(`\nFirebreak is running at ${server.url}${storeNote}\n`);
  process.stdout.write('Press Ctrl-C to stop.\n\n');
} catch (error) {
  if (error instanceof EmbeddedPostgresError) {
    // Nothing has started yet, and the message says why and what to do: one line, no stack trace.
    logger.fatal(`start-up failed: ${error.message}`);
    process.exit(1);
  }
  logger.fatal({ err: error }, `start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  await shutdown.run('start-up failed');
  process.exit(1);
}
