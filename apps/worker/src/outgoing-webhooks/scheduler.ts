import type { WebhookLine } from '@firebreak/services';

export interface LineSchedulerOptions {
  /** Lines delivered at once by this process; each holds a database connection while it waits. */
  concurrency: number;
  /** Lines of one webhook delivered at once: a slow or dead target cannot take every slot. */
  perWebhook: number;
}

export interface LineScheduler {
  /**
   * Queues a line unless it is queued already; a line running now runs once more after, so an event
   * committed during the run is not left for the reconciler. Resolves when that run has ended.
   */
  submit(line: WebhookLine): Promise<void>;
  /** Lines queued or running. */
  size(): number;
  /** Drops what is queued (it waits in PostgreSQL) and waits for the runs under way. */
  stop(): Promise<void>;
}

interface Entry {
  line: WebhookLine;
  done: Promise<void>;
  resolve: () => void;
  running: boolean;
  again: boolean;
}

/**
 * The worker's delivery slots. A wake-up job hands its line over and ends at once, so the queue's own
 * slots are never held by a slow target; lines then take turns here, at most `perWebhook` of one
 * webhook at a time, oldest submission first.
 */
export function createLineScheduler(
  run: (line: WebhookLine) => Promise<void>,
  options: LineSchedulerOptions,
): LineScheduler {
  const entries = new Map<string, Entry>();
  const queue: string[] = [];
  const activeByWebhook = new Map<string, number>();
  let active = 0;
  let stopped = false;

  const start = (key: string, entry: Entry) => {
    active += 1;
    entry.running = true;
    const webhookId = entry.line.webhookId;
    activeByWebhook.set(webhookId, (activeByWebhook.get(webhookId) ?? 0) + 1);
    void run(entry.line)
      .catch(() => undefined)
      .finally(() => {
        active -= 1;
        activeByWebhook.set(webhookId, (activeByWebhook.get(webhookId) ?? 1) - 1);
        entry.running = false;
        if (entry.again && !stopped) {
          entry.again = false;
          queue.push(key);
        } else {
          entries.delete(key);
          entry.resolve();
        }
        pump();
      });
  };

  const pump = () => {
    for (let i = 0; i < queue.length && active < options.concurrency; ) {
      const key = queue[i]!;
      const entry = entries.get(key)!;
      if ((activeByWebhook.get(entry.line.webhookId) ?? 0) >= options.perWebhook) {
        i += 1;
        continue;
      }
      queue.splice(i, 1);
      start(key, entry);
    }
  };

  return {
    submit(line) {
      const key = `${line.webhookId}/${line.incidentId}`;
      const known = entries.get(key);
      if (known) {
        if (known.running) known.again = true;
        return known.done;
      }
      if (stopped) return Promise.resolve();
      let resolve!: () => void;
      const done = new Promise<void>((r) => {
        resolve = r;
      });
      entries.set(key, { line, done, resolve, running: false, again: false });
      queue.push(key);
      pump();
      return done;
    },
    size: () => entries.size,
    async stop() {
      stopped = true;
      for (const key of queue.splice(0)) {
        entries.get(key)?.resolve();
        entries.delete(key);
      }
      await Promise.all([...entries.values()].map((entry) => entry.done));
    },
  };
}
