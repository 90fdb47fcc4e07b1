import type { Socket } from 'node:net';
import { loadConfigOrExit } from '@firebreak/config';
import { createLogger } from '@firebreak/logger';
import {
  createRuntime,
  GatheredRegistry,
  type HandedConnectionsServer,
  type Runtime,
  Shutdown,
  serveHandedConnections,
} from '@firebreak/runtime';
import { createServerApp } from '../app';
import {
  type HttpProcessMessage,
  isPrimaryMessage,
  type PrimaryMessage,
  type ServeMessage,
} from './messages';

const SCRAPE_TIMEOUT_MS = 5000;
/** After SIGTERM, how long to wait for the primary's `drain` (which follows every connection handed here). */
const DRAIN_ASKED_TIMEOUT_MS = 5000;

/**
 * One of the processes `pnpm start` forks to serve HTTP (HTTP_PROCESSES above 1): every app's routes and
 * the web UI, nothing else. The primary prepared the database and runs the background work; this
 * process says hello, waits for its `serve` message, serves the connections the primary hands it until
 * the primary says `drain` (or SIGTERM reaches it alone), answers every request on them, and exits 0.
 * When the primary dies, node:cluster ends it.
 */
export async function runHttpProcess(webRoot: string): Promise<void> {
  const config = loadConfigOrExit();
  // With a callback, a send after the primary has gone fails quietly (the IPC channel closed: node:cluster
  // ends this process anyway) instead of throwing an unhandled 'error' with a stack trace on the way out.
  const send = (message: HttpProcessMessage) => process.send?.(message, undefined, {}, () => {});
  const serve = await new Promise<ServeMessage>((done) => {
    const onMessage = (message: unknown) => {
      if (!isPrimaryMessage(message)) return;
      // The primary began shutting down while this process was still loading: nothing to answer.
      if (message.type === 'firebreak:drain') process.exit(0);
      if (message.type !== 'firebreak:serve') return;
      process.off('message', onMessage);
      done(message);
    };
    process.on('message', onMessage);
    send({ type: 'firebreak:hello' });
  });
  const logger = createLogger({ level: config.logLevel, name: 'firebreak' }).child({
    http_process: serve.slot,
  });
  const scrapes = new Map<number, (answer: { text?: string; error?: string }) => void>();
  let nextScrape = 0;
  // A scrape reaching this process is answered with every process's metrics, which the primary gathers.
  const registry = new GatheredRegistry(
    () =>
      new Promise<string>((resolve, reject) => {
        const id = nextScrape++;
        const settle = (answer: { text?: string; error?: string }) => {
          clearTimeout(timer);
          scrapes.delete(id);
          if (answer.text !== undefined) resolve(answer.text);
          else reject(new Error(answer.error ?? 'no metrics'));
        };
        const timer = setTimeout(
          () => settle({ error: 'the primary did not gather the metrics in time' }),
          SCRAPE_TIMEOUT_MS,
        );
        scrapes.set(id, settle);
        send({ type: 'firebreak:scrape', id });
      }),
  );
  const runtime = createRuntime({
    name: 'server-http',
    config,
    logger,
    registry,
    databaseUrl: serve.databaseUrl,
    redisUrl: serve.redisUrl,
  });
  let prepared = serve.prepared;
  const shutdown = new Shutdown(logger);
  let draining = false;
  // One drain however many ask (the primary, a signal, both): the exit waits for the answers.
  const drain = (reason: string) => {
    if (draining) return;
    draining = true;
    void shutdown.run(reason).then(() => process.exit(0));
  };
  // A Ctrl-C reaches the whole process group: the primary drains every process in order, so SIGINT is
  // left to it. SIGTERM aimed at this process alone drains it (the primary then replaces it), once the
  // primary has stopped handing it connections: its `drain` comes after the last one.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {
    if (!process.connected) return drain('SIGTERM');
    send({ type: 'firebreak:draining' });
    setTimeout(() => drain('SIGTERM'), DRAIN_ASKED_TIMEOUT_MS).unref();
  });

  let server: HandedConnectionsServer | undefined;
  process.on('message', (message: unknown, handle: unknown) => {
    if (!isPrimaryMessage(message)) return;
    if (message.type === 'firebreak:connection') {
      // Sent only once this process said it accepts, so the server is there.
      if (server) server.accept(handle as Socket);
      else (handle as Socket | undefined)?.destroy();
      return;
    }
    onPrimaryMessage(message);
  });
  function onPrimaryMessage(message: PrimaryMessage): void {
    if (message.type === 'firebreak:prepared') prepared = true;
    else if (message.type === 'firebreak:drain') drain('drain');
    else if (message.type === 'firebreak:collect-metrics') {
      void registry
        .getMetricsAsJSON()
        .then((local) => send({ type: 'firebreak:local-metrics', id: message.id, metrics: local }));
    } else if (message.type === 'firebreak:metrics') {
      scrapes.get(message.id)?.(message);
    }
  }

  shutdown.add('clients', runtime.close);
  // Until the primary has migrated the database, it is not ready for this process's requests either.
  const ready: Runtime['ready'] = async () => {
    const readiness = await runtime.ready();
    return prepared ? readiness : { ...readiness, status: 'error', database: 'error' };
  };
  const app = createServerApp({ ctx: runtime.ctx, ready, config, webRoot, httpProcess: String(serve.slot) });
  const http = serveHandedConnections(app, logger, config.host);
  server = http;
  shutdown.add('http server', () => http.close());
  send({ type: 'firebreak:accepting' });
  logger.info({ pid: process.pid }, 'HTTP process taking connections');
}
