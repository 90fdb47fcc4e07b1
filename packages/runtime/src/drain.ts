import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Logger } from '@firebreak/logger';

/**
 * How long a connection with no request in progress stays open during a drain, waiting for one that
 * may already be on its way: a keep-alive client sends its next request the moment it has an answer,
 * and a connection accepted a moment ago has its first request in flight. Long enough for any
 * loopback or LAN round trip; a client silent for longer is closed like any idle keep-alive connection.
 */
export const DRAIN_IDLE_MS = 500;

interface Connection {
  socket: Socket;
  responses: Set<ServerResponse>;
  idleSince: number;
  /** `socket.bytesRead` when it went idle: more means a request has begun arriving. */
  bytesAtIdle: number;
  timer?: NodeJS.Timeout;
}

export interface Drainable {
  /**
   * Stops listening, then answers every request that reaches this server on a connection it accepted
   * (with `Connection: close`) and closes each connection after its last answer, or once idle for
   * DRAIN_IDLE_MS; whatever is still open after `graceMs` is closed.
   */
  close(graceMs: number): Promise<void>;
}

/**
 * Graceful close for an HTTP server, attached before it listens. Node's own `server.close()` also
 * destroys every connection it deems idle at that instant, which includes a keep-alive connection whose
 * next request is on its way and one accepted a moment ago whose first request is still in the socket's
 * buffer: both requests reached the server and would never be answered. Connections that the kernel
 * had queued but this process never accepted are reset when the listening socket closes; that cannot be
 * avoided from user space, and such a connection carried nothing this server read (docs/decisions.md).
 */
export function drainable(server: Server, logger: Logger): Drainable {
  const connections = new Map<Socket, Connection>();
  let draining = false;
  // The drain ends once the listener (if any) has closed and the last connection with it: counted here
  // rather than by net.Server, which does not count connections handed in by `emit('connection')`.
  let drained: (() => void) | undefined;
  let listenerClosed = false;
  const settleIfDrained = () => {
    if (listenerClosed && connections.size === 0) drained?.();
  };

  const closeWhenIdle = (connection: Connection) => {
    clearTimeout(connection.timer);
    if (connection.responses.size > 0) return;
    const wait = Math.max(0, connection.idleSince + DRAIN_IDLE_MS - Date.now());
    connection.timer = setTimeout(() => {
      // After the next poll phase: a request whose bytes the kernel already holds is read first (a
      // timer can fire before the loop has read sockets that became readable while it was busy).
      setImmediate(() => {
        if (connection.responses.size > 0) return;
        if (connection.socket.bytesRead !== connection.bytesAtIdle) {
          idle(connection); // a request is arriving: wait for it to complete
          return;
        }
        connection.socket.destroy();
      });
    }, wait);
  };
  const idle = (connection: Connection) => {
    connection.idleSince = Date.now();
    connection.bytesAtIdle = connection.socket.bytesRead;
    if (draining) closeWhenIdle(connection);
  };

  server.on('connection', (socket: Socket) => {
    const connection: Connection = { socket, responses: new Set(), idleSince: 0, bytesAtIdle: 0 };
    connections.set(socket, connection);
    socket.once('close', () => {
      clearTimeout(connection.timer);
      connections.delete(socket);
      settleIfDrained();
    });
    idle(connection);
  });
  // Before the app's own listener, so the header is set before the app can answer.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const connection = connections.get(request.socket);
    if (!connection) return;
    clearTimeout(connection.timer);
    connection.responses.add(response);
    if (draining) response.setHeader('connection', 'close');
    response.once('close', () => {
      connection.responses.delete(response);
      if (connection.responses.size === 0) idle(connection);
    });
  });

  return {
    close: (graceMs) =>
      new Promise((resolve) => {
        draining = true;
        const force = setTimeout(() => {
          const busy = [...connections.values()].filter((c) => c.responses.size > 0).length;
          logger.warn(
            { grace_ms: graceMs, connections: connections.size, with_requests: busy },
            'closing connections still open after the grace period',
          );
          for (const connection of connections.values()) connection.socket.destroy();
        }, graceMs);
        drained = () => {
          clearTimeout(force);
          resolve();
        };
        // net.Server#close only stops listening (a server fed handed-in connections has nothing to stop,
        // and says so with an error that means nothing here); http.Server#close would first destroy the
        // "idle" connections described above.
        NetServer.prototype.close.call(server, () => {
          listenerClosed = true;
          settleIfDrained();
        });
        for (const connection of connections.values()) {
          // Answers not begun yet say the connection ends with them.
          for (const response of connection.responses) {
            if (!response.headersSent) response.setHeader('connection', 'close');
          }
          closeWhenIdle(connection);
        }
      }),
  };
}
