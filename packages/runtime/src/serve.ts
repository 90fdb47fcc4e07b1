import type { AddressInfo } from 'node:net';
import type { Logger } from '@firebreak/logger';
import { type ServerType, serve } from '@hono/node-server';

/** Any Hono app, whatever its environment type. */
export interface FetchApp {
  fetch: (request: Request) => Response | Promise<Response>;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes what is left. */
  close(graceMs?: number): Promise<void>;
}

export function startServer(
  app: FetchApp,
  port: number,
  logger: Logger,
  hostname = '0.0.0.0',
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    let server: ServerType;
    try {
      server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
        const host = hostname === '0.0.0.0' ? 'localhost' : hostname;
        resolve({
          url: `http://${host}:${info.port}`,
          port: info.port,
          close: (graceMs = 10_000) => closeServer(server, graceMs, logger),
        });
      });
      server.once('error', reject);
    } catch (error) {
      reject(error);
    }
  });
}

function closeServer(server: ServerType, graceMs: number, logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => {
      logger.warn({ grace_ms: graceMs }, 'closing connections still open after the grace period');
      if ('closeAllConnections' in server) server.closeAllConnections();
    }, graceMs);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    // Idle keep-alive connections would hold close() open; requests in flight are left to finish.
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
}
