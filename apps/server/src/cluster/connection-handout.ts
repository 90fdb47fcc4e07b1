import type { Worker } from 'node:cluster';
import { createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '@firebreak/logger';
import type { PrimaryMessage } from './messages';

/** A connection no HTTP process could take for this long (all of them starting or replaced) is closed. */
const UNTAKEN_TIMEOUT_MS = 30_000;

interface Untaken {
  socket: Socket;
  timer: NodeJS.Timeout;
}

/**
 * The primary's listening socket: it accepts each connection without reading from it and hands it to
 * the next HTTP process in turn, so the processes share the connections evenly however they arrive.
 * When each process accepted from a shared socket itself, a burst of keep-alive connections (a load
 * generator's, a proxy filling its pool) could land wholly on one process, which then served
 * everything on one core while the others idled (docs/decisions.md#start-up-and-processes).
 *
 * Node's own round-robin (`SCHED_RR`) does the same, but closes, unanswered, connections it accepted
 * and queued for a process that stops taking them. Here a connection is sent at once and node delivers
 * a process's messages in order, so the `drain` sent after the last connection reaches the process
 * after every connection it was given: it answers them all (HttpProcesses.drain).
 */
export class ConnectionHandout {
  private readonly server: Server;
  /** The processes taking connections, in hand-out order. */
  private readonly takers: Worker[] = [];
  private next = 0;
  /** Accepted while no process takes connections; handed out when one does. */
  private readonly untaken = new Set<Untaken>();
  private closed = false;

  constructor(private readonly logger: Logger) {
    // Paused: nothing is read here, so the process it goes to reads the request from the start.
    this.server = createServer({ pauseOnConnect: true }, (socket) => this.handOut(socket));
  }

  /** Resolves with the port once listening; rejects when the address cannot be had (a port in use). */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        // Later errors are of single accepts (too many open files): logged, the socket keeps listening.
        this.server.on('error', (error) =>
          this.logger.error({ err: error }, 'accepting a connection failed'),
        );
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /** The process is ready for connections (its server exists and it listens for messages). */
  add(worker: Worker): void {
    if (this.closed || this.takers.includes(worker)) return;
    this.takers.push(worker);
    for (const waiting of [...this.untaken]) {
      clearTimeout(waiting.timer);
      this.untaken.delete(waiting);
      this.handOut(waiting.socket);
    }
  }

  /** The process takes no more connections (it drains, or it died). */
  remove(worker: Worker): void {
    const at = this.takers.indexOf(worker);
    if (at !== -1) this.takers.splice(at, 1);
  }

  /**
   * Stops accepting: connections the kernel completed but this process had not yet accepted are reset
   * (docs/decisions.md), as are those no process took. Every connection already handed out stays with
   * its process, which the caller then tells to drain.
   */
  close(): void {
    this.closed = true;
    this.takers.length = 0;
    this.server.close();
    for (const waiting of this.untaken) {
      clearTimeout(waiting.timer);
      waiting.socket.destroy();
    }
    this.untaken.clear();
  }

  private handOut(socket: Socket): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    const worker = this.nextTaker();
    if (!worker) {
      const waiting: Untaken = {
        socket,
        timer: setTimeout(() => {
          this.untaken.delete(waiting);
          socket.destroy();
        }, UNTAKEN_TIMEOUT_MS),
      };
      this.untaken.add(waiting);
      return;
    }
    const message: PrimaryMessage = { type: 'firebreak:connection' };
    worker.send(message, socket, (error: Error | null) => {
      if (!error) return;
      // The process went away as the connection was on its way (node has closed its end here): the
      // sender sees the connection close unanswered, as with a connection of a process that crashes.
      this.remove(worker);
      socket.destroy();
      this.logger.warn(
        { err: error, pid: worker.process.pid },
        'a connection could not be handed to an HTTP process',
      );
    });
  }

  private nextTaker(): Worker | undefined {
    while (this.takers.length > 0) {
      this.next %= this.takers.length;
      const worker = this.takers[this.next]!;
      if (worker.isConnected()) {
        this.next += 1;
        return worker;
      }
      this.takers.splice(this.next, 1);
    }
    return undefined;
  }
}
