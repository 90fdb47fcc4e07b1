// The primary of `pnpm start`: the embedded database and store, migrations and the first admin, the
// worker and the chat worker, once; HTTP in this process (HTTP_PROCESSES=1) or in forked ones.
import { resolve } from 'node:path';
import { startChatWorker } from '@firebreak/chat';
import { chatPlatformsOn, loadConfigOrExit } from '@firebreak/config';
import { EmbeddedPostgresError } from '@firebreak/embedded-postgres';
import { scheduleOpenIntakeWarning } from '@firebreak/ingest';
import { createLogger } from '@firebreak/logger';
import { checkProcessesFit, createRuntime, prepareDatabase, Shutdown, startServer } from '@firebreak/runtime';
import { startWorker } from '@firebreak/worker';
import { createServerApp } from './app';
import { httpProcessCount } from './cluster/process-count';
import { HttpProcesses } from './cluster/supervisor';
import { startEmbeddedPostgres } from './embedded-postgres';
import { chooseStore } from './embedded-redis';

export async function runPrimary(webRoot: string): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, name: 'firebreak' });
  const shutdown = new Shutdown(logger);
  shutdown.listen();
  const httpProcesses = httpProcessCount(config.httpProcesses);
  // 1: today's single process, HTTP beside the background work; above 1, the HTTP processes' pools too.
  const processes = httpProcesses === 1 ? 1 : httpProcesses + 1;

  try {
    const dataDir = resolve(config.dataDir);
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const database = await startEmbeddedPostgres(dataDir, logger, {
        poolSize: config.dbMaxOpenConns,
        processes,
      });
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
    // Once per start (the primary's): a fixed webhook path that takes alerts from anyone is worth a line.
    void database.done.then(() => scheduleOpenIntakeWarning(runtime.ctx)).catch(() => {});
    if (processes > 1) {
      void database.done
        .then(() => checkProcessesFit(runtime.sql, config.dbMaxOpenConns, processes, logger))
        .catch(() => {});
    }
    // A database that was down at start can still turn out unusable when it answers (pool too large).
    database.done.catch(async (error: unknown) => {
      logger.fatal(
        { err: error },
        `start-up failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      await shutdown.run('start-up failed');
      process.exit(1);
    });

    const publicUrl = config.publicUrl ?? `http://localhost:${config.port ?? 8080}`;
    const worker = await startWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      ai: runtime.config.ai,
      paging: config.paging,
      telegram: config.telegram,
      publicUrl,
      // The chat worker below runs in this process with this configuration.
      chatOff: chatPlatformsOn(config).length === 0,
    });
    shutdown.add('worker', () => worker.stop());
    const chatWorker = startChatWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      chat: config.chat,
      teams: config.teams,
      publicUrl,
    });
    shutdown.add('chat worker', () => chatWorker.stop());

    let url: string;
    if (httpProcesses === 1) {
      const app = createServerApp({ ctx: runtime.ctx, ready: runtime.ready, config, webRoot });
      const server = await startServer(app, config.port ?? 8080, logger, config.host);
      shutdown.add('http server', () => server.close());
      url = server.url;
    } else {
      const http = new HttpProcesses({
        count: httpProcesses,
        port: config.port ?? 8080,
        host: config.host,
        databaseUrl,
        redisUrl: store.url,
        metrics: runtime.ctx.metrics,
        logger,
      });
      shutdown.add('http processes', () => http.drain());
      void database.done.then(() => http.markPrepared()).catch(() => {});
      const port = await http.start();
      url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
    }

    const storeNote = store.mode === 'degraded' ? ' (degraded: no Redis, background work waits)' : '';
    logger.info({ url, store: store.mode, http_processes: httpProcesses }, 'firebreak started');
    process.stdout.write(`\nFirebreak is running at ${url}${storeNote}\n`);
    process.stdout.write('Press Ctrl-C to stop.\n\n');
  } catch (error) {
    if (error instanceof EmbeddedPostgresError) {
      // Nothing has started yet, and the message says why and what to do: one line, no stack trace.
      logger.fatal(`start-up failed: ${error.message}`);
      process.exit(1);
    }
    logger.fatal(
      { err: error },
      `start-up failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    await shutdown.run('start-up failed');
    process.exit(1);
  }
}
