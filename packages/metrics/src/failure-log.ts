import type { Logger } from '@firebreak/logger';
import { Counter, Gauge } from 'prom-client';
import type { Metrics } from './index';

/** What broke, in the words an operator greps for (docs/runbooks/README.md), and the line to log for it. */
export interface Failure {
  /** Short stable name: `connection refused`, `NOAUTH`, `invalid_auth`… (the metrics label). */
  reason: string;
  /** The log line (`msg`), e.g. `database: connection refused (database down or unreachable): …`. */
  line: string;
  /** Extra fields for the log line; the underlying error message belongs here too. */
  fields?: Record<string, unknown>;
}

/**
 * A part of the system that can fail on its own: the database, the store, a chat platform (`chat` is
 * Slack, as it always was; `chat:teams` Microsoft Teams), or the signature check of one integration.
 */
export type Component = 'database' | 'redis' | 'chat' | `chat:${string}` | `signature:${string}`;

interface Outage {
  reason: string;
  since: number;
  lastSeen: number;
  /** Which clients of the component are failing (several Redis connections share one state). */
  sources: Set<string>;
}

export interface FailureLogOptions {
  logger: Logger;
  metrics: Metrics;
  /**
   * How to find out that a failed component works again when nothing else would tell us (the
   * database: a request may not come for minutes). Polled every `probeIntervalMs` while it is down.
   */
  probes?: Partial<Record<Component, () => Promise<void>>>;
  probeIntervalMs?: number;
  now?: () => number;
}

/**
 * Logs each failure once per change of state — when a component starts failing, when the reason
 * changes (refused → wrong password), and when it recovers — not once per request or retry, so an
 * outage leaves a few lines that say what happened instead of thousands. Every occurrence is still
 * counted in `/metrics` (`firebreak_failures_total`), and `firebreak_component_up` says which
 * components are failing now.
 */
export class FailureLog {
  private readonly outages = new Map<Component, Outage>();
  private readonly probeTimers = new Map<Component, NodeJS.Timeout>();
  private readonly occurrences: Counter<'component' | 'reason'>;
  private readonly up: Gauge<'component'>;
  private readonly now: () => number;

  constructor(private readonly options: FailureLogOptions) {
    this.now = options.now ?? Date.now;
    const registers = [options.metrics.registry];
    this.occurrences = new Counter({
      name: 'firebreak_failures_total',
      help: 'Failures seen, by component (database, redis, chat, signature:<integration>) and reason',
      labelNames: ['component', 'reason'],
      registers,
    });
    this.up = new Gauge({
      name: 'firebreak_component_up',
      help: '1 while the component works, 0 while it is failing (set once it has been used)',
      labelNames: ['component'],
      // Several processes behind one scrape (pnpm start): down when any of them finds it down.
      aggregator: 'min',
      registers,
    });
  }

  /**
   * A failure of `component` seen by `source` (one client among several, or the only one).
   * `forgetAfterMs`: for failures nothing reports the end of (a sender with a wrong signing secret),
   * the state is forgotten after that long without one, and the next one is logged again.
   */
  failed(
    component: Component,
    failure: Failure,
    source = 'default',
    options: { forgetAfterMs?: number } = {},
  ): void {
    this.occurrences.inc({ component, reason: failure.reason });
    this.up.set({ component }, 0);
    const now = this.now();
    let outage = this.outages.get(component);
    if (outage && options.forgetAfterMs !== undefined && now - outage.lastSeen > options.forgetAfterMs) {
      this.outages.delete(component);
      outage = undefined;
    }
    if (outage && outage.reason === failure.reason) {
      outage.sources.add(source);
      outage.lastSeen = now;
      return;
    }
    this.outages.set(component, {
      reason: failure.reason,
      since: outage?.since ?? now,
      lastSeen: now,
      sources: new Set([...(outage?.sources ?? []), source]),
    });
    this.options.logger.error({ component, reason: failure.reason, ...failure.fields }, failure.line);
    this.startProbe(component);
  }

  /** `source` works again; once no source of the component is failing, the recovery is logged. */
  recovered(component: Component, source = 'default', line = `${component}: connection restored`): void {
    const outage = this.outages.get(component);
    if (!outage) {
      this.up.set({ component }, 1);
      return;
    }
    outage.sources.delete(source);
    if (outage.sources.size > 0) return;
    this.outages.delete(component);
    this.stopProbe(component);
    this.up.set({ component }, 1);
    this.options.logger.info(
      {
        component,
        after_reason: outage.reason,
        down_seconds: Math.round((this.now() - outage.since) / 1000),
      },
      line,
    );
  }

  /** The reason `component` is failing now, or undefined while it works. */
  failing(component: Component): string | undefined {
    return this.outages.get(component)?.reason;
  }

  /** Stops the recovery probes (process shutdown). */
  close(): void {
    for (const component of [...this.probeTimers.keys()]) this.stopProbe(component);
  }

  private startProbe(component: Component): void {
    const probe = this.options.probes?.[component];
    if (!probe || this.probeTimers.has(component)) return;
    const timer = setInterval(() => {
      probe().then(
        () => this.recovered(component, 'default'),
        () => {
          // Still down: whoever sees the failure next reports its reason.
        },
      );
    }, this.options.probeIntervalMs ?? 1000);
    timer.unref();
    this.probeTimers.set(component, timer);
  }

  private stopProbe(component: Component): void {
    clearInterval(this.probeTimers.get(component));
    this.probeTimers.delete(component);
  }
}
