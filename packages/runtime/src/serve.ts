import type { Server, ServerOptions } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '@firebreak/logger';
import { createAdaptorServer } from '@hono/node-server';
import { drainable } from './drain';

/** Any Hono app, whatever its environment type. */
export interface FetchApp {
  fetch: (request: Request) => Response | Promise<Response>;
}

export interface RunningServer {
  url: string;
  port: number;
  /**
   * Stops listening, answers every request that reached it on a connection it accepted (up to
   * `graceMs`), then closes what is left (drain.ts).
   */
  close(graceMs?: number): Promise<void>;
}

/** An HTTP server for connections another process accepted and handed over (it never listens). */
export interface HandedConnectionsServer {
  /** Serves a connection: one the primary accepted paused (nothing read yet) and sent to this process. */
  accept(socket: Socket): void;
  /** As `RunningServer.close`: answers what reached it, then closes (drain.ts). */
  close(graceMs?: number): Promise<void>;
}

function createServer(app: FetchApp, hostname: string, logger: Logger, options: ServerOptions = {}) {
  // Created without listening, so the drain sees every connection from the first one.
  const server = createAdaptorServer({ fetch: app.fetch, hostname, serverOptions: options }) as Server;
  return { server, drain: drainable(server, logger) };
}

/**
 * The HTTP side of a process whose connections come from elsewhere (`pnpm start`'s HTTP processes, whose
 * primary accepts and hands each connection to the next process): Node documents `'connection'` as
 * the event to emit for a socket the server did not accept itself.
 */
export function serveHandedConnections(
  app: FetchApp,
  logger: Logger,
  hostname = '0.0.0.0',
  options: ServerOptions = {},
): HandedConnectionsServer {
  const { server, drain } = createServer(app, hostname, logger, options);
  // node starts checking requests against `headersTimeout` and `requestTimeout` (a client that never
  // finishes its request is answered 408 and closed) when the server emits 'listening'; this one never
  // listens, so it says so itself, or a slow sender could hold a connection forever.
  server.emit('listening');
  return {
    accept: (socket) => {
      server.emit('connection', socket);
      socket.resume();
    },
    close: (graceMs = 10_000) => drain.close(graceMs),
  };
}

export function startServer(
  app: FetchApp,
  port: number,
  logger: Logger,
  hostname = '0.0.0.0',
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    try {
      const { server, drain } = createServer(app, hostname, logger);
      server.once('error', reject);
      server.listen(port, hostname, () => {
        const info = server.address() as AddressInfo;
        const host = hostname === '0.0.0.0' ? 'localhost' : hostname;
        resolve({
          url: `http://${host}:${info.port}`,
          port: info.port,
          close: (graceMs = 10_000) => drain.close(graceMs),
        });
      });
    } catch (error) {
      reject(error);
    }
  });
}
