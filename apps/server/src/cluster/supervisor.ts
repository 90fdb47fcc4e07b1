import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@firebreak/logger';
import { aggregateMetrics, type ProcessMetrics, type Runtime } from '@firebreak/runtime';
import { ConnectionHandout } from './connection-handout';
import { isHttpProcessMessage, type PrimaryMessage } from './messages';
import { HEALTHY_AFTER_MS, replacementDelayMs } from './replacement-delay';

/** A process that does not answer for its metrics in this time is left out of that scrape. */
const COLLECT_TIMEOUT_MS = 2000;
/** The HTTP processes' own grace for requests in flight is 10 s (startServer); this is theirs plus exit. */
const DRAIN_TIMEOUT_MS = 15_000;

export interface HttpProcessesOptions {
  count: number;
  /** Where the primary listens (it accepts, the HTTP processes serve). */
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string;
  /** The primary's own metrics (worker, chat worker, failures), part of every scrape. */
  metrics: Runtime['ctx']['metrics'];
  logger: Logger;
}

interface Slot {
  number: number;
  worker?: Worker;
  /** Whether its worker has said hello: messages sent before then would be lost. */
  serving: boolean;
  /** Whether its worker's server is up, so it may be handed connections. */
  accepting: boolean;
  startedAt: number;
  crashesInARow: number;
  replacing?: NodeJS.Timeout;
}

/**
 * The primary's side of `pnpm start` with several HTTP processes: forks them, listens and hands each
 * connection to the next of them (ConnectionHandout), answers their scrapes with every process's
 * metrics, tells them when the database is prepared, replaces one that exits on its own (after a
 * growing pause, logged once per exit), and drains them all on shutdown.
 */
export class HttpProcesses {
  private readonly slots: Slot[];
  private prepared = false;
  private stopping = false;
  private nextCollect = 0;
  private readonly collecting = new Map<number, (metrics: ProcessMetrics) => void>();
  private readonly handout: ConnectionHandout;
  /** Settles `start` once every process takes connections. */
  private started?: () => void;

  constructor(private readonly options: HttpProcessesOptions) {
    this.slots = Array.from({ length: options.count }, (_, i) => ({
      number: i + 1,
      serving: false,
      accepting: false,
      startedAt: 0,
      crashesInARow: 0,
    }));
    this.handout = new ConnectionHandout(options.logger);
  }

  /**
   * Resolves with the port once the primary listens and every process takes connections; rejects when
   * the address cannot be had (a port in use) or a process exits first.
   */
  async start(): Promise<number> {
    const port = await this.handout.listen(this.options.port, this.options.host);
    await new Promise<void>((resolve, reject) => {
      this.started = () => {
        if (this.slots.every((slot) => slot.accepting)) resolve();
      };
      for (const slot of this.slots) {
        const worker = this.fork(slot);
        worker.once('exit', (code, signal) => {
          // A shutdown that began while the processes were starting drains them, and they exit: that
          // is the stop asked for, not a failed start. The shutdown exits the primary; this start never settles.
          if (this.stopping || slot.accepting) return;
          reject(
            new Error(
              `an HTTP process (pid ${worker.process.pid}) exited while starting (${signal ?? code})`,
            ),
          );
        });
      }
    });
    this.started = undefined;
    return port;
  }

  /** Migrations and the first admin are done: `/ready` may say so in every process. */
  markPrepared(): void {
    this.prepared = true;
    this.broadcast({ type: 'firebreak:prepared' });
  }

  /** Every process stops accepting, answers what it accepted, and exits; resolves when all have. */
  async drain(): Promise<void> {
    this.stopping = true;
    // Stop accepting first: every connection handed out is then on its way before the `drain` below.
    this.handout.close();
    const running: Worker[] = [];
    for (const slot of this.slots) {
      clearTimeout(slot.replacing);
      if (slot.worker && !slot.worker.isDead()) running.push(slot.worker);
    }
    await Promise.all(
      running.map(
        (worker) =>
          new Promise<void>((done) => {
            const force = setTimeout(() => {
              this.options.logger.warn({ pid: worker.process.pid }, 'an HTTP process did not drain in time');
              worker.process.kill('SIGKILL');
            }, DRAIN_TIMEOUT_MS);
            worker.once('exit', () => {
              clearTimeout(force);
              done();
            });
            // One still loading is told when it says hello.
            if (this.slots.some((slot) => slot.worker === worker && slot.serving)) {
              this.send(worker, { type: 'firebreak:drain' });
            }
          }),
      ),
    );
  }

  private fork(slot: Slot): Worker {
    // The processes never listen (the primary hands them connections), so node:cluster's scheduling of
    // a shared socket does not apply; `SCHED_NONE` keeps it from setting up its own round-robin.
    cluster.schedulingPolicy = cluster.SCHED_NONE;
    const worker = cluster.fork();
    slot.worker = worker;
    slot.serving = false;
    slot.accepting = false;
    slot.startedAt = Date.now();
    // A send to a process that just died fails with EPIPE; its exit is handled below.
    worker.on('error', () => {});
    worker.on('message', (message: unknown) => this.onMessage(slot, worker, message));
    worker.once('exit', (code, signal) => this.onExit(slot, worker, code, signal));
    return worker;
  }

  private onExit(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    this.handout.remove(worker);
    if (slot.worker === worker) slot.accepting = false;
    if (this.stopping || slot.worker !== worker) return;
    slot.crashesInARow = Date.now() - slot.startedAt >= HEALTHY_AFTER_MS ? 1 : slot.crashesInARow + 1;
    const delay = replacementDelayMs(slot.crashesInARow);
    this.options.logger.error(
      { pid: worker.process.pid, http_process: slot.number, code, signal, replace_in_ms: delay },
      `HTTP process ${slot.number} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); ` +
        `replacing it in ${delay / 1000} s`,
    );
    slot.replacing = setTimeout(() => {
      if (!this.stopping) this.fork(slot);
    }, delay);
  }

  private onMessage(slot: Slot, worker: Worker, message: unknown): void {
    if (!isHttpProcessMessage(message)) return;
    if (message.type === 'firebreak:hello') {
      // One that finished loading after the drain began has nothing to answer: it exits at once.
      if (this.stopping) {
        this.send(worker, { type: 'firebreak:drain' });
        return;
      }
      slot.serving = true;
      this.send(worker, {
        type: 'firebreak:serve',
        databaseUrl: this.options.databaseUrl,
        redisUrl: this.options.redisUrl,
        slot: slot.number,
        prepared: this.prepared,
      });
    } else if (message.type === 'firebreak:accepting') {
      slot.accepting = true;
      this.handout.add(worker);
      this.started?.();
    } else if (message.type === 'firebreak:draining') {
      // After the last connection handed to it, so it answers them all before it exits.
      this.handout.remove(worker);
      this.send(worker, { type: 'firebreak:drain' });
    } else if (message.type === 'firebreak:local-metrics') {
      this.collecting.get(message.id)?.(message.metrics);
    } else if (message.type === 'firebreak:scrape') {
      this.gather().then(
        (text) => this.send(worker, { type: 'firebreak:metrics', id: message.id, text }),
        (error: unknown) =>
          this.send(worker, { type: 'firebreak:metrics', id: message.id, error: String(error) }),
      );
    }
  }

  /** The primary's metrics and every HTTP process's that answers in time, merged into one exposition. */
  private async gather(): Promise<string> {
    const own = await this.options.metrics.registry.getMetricsAsJSON();
    const others = await Promise.all(
      this.live().map(
        (worker) =>
          new Promise<ProcessMetrics>((resolve) => {
            const id = this.nextCollect++;
            const timer = setTimeout(() => {
              this.collecting.delete(id);
              resolve([]);
            }, COLLECT_TIMEOUT_MS);
            this.collecting.set(id, (metrics) => {
              clearTimeout(timer);
              this.collecting.delete(id);
              resolve(metrics);
            });
            this.send(worker, { type: 'firebreak:collect-metrics', id });
          }),
      ),
    );
    return aggregateMetrics([own, ...others]);
  }

  private live(): Worker[] {
    return this.slots.flatMap((slot) => (slot.serving && slot.worker?.isConnected() ? [slot.worker] : []));
  }

  private broadcast(message: PrimaryMessage): void {
    for (const worker of this.live()) this.send(worker, message);
  }

  private send(worker: Worker, message: PrimaryMessage): void {
    if (worker.isConnected()) worker.send(message);
  }
}
