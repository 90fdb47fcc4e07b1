import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (`GET /metrics`). One registry per process (and per test), never
 * prom-client's global one, so several apps in one process or test file do not collide.
 */
export interface Metrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  incidentsCreated: Counter<'source'>;
  alertsReceived: Counter<'integration'>;
  /** Intake requests waiting for a transaction to share (docs/decisions.md#intake-in-company). */
  intakeWaiting: Gauge;
  escalationsFired: Counter;
  jobFailures: Counter<'queue'>;
}

export function createMetrics(options: { defaultMetrics?: boolean; registry?: Registry } = {}): Metrics {
  const registry = options.registry ?? new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'firebreak_' });
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'firebreak_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status, with their duration',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    incidentsCreated: new Counter({
      name: 'firebreak_incidents_created_total',
      help: 'Incidents opened, by how they were opened (manual, alert, chat)',
      labelNames: ['source'],
      registers: [registry],
    }),
    alertsReceived: new Counter({
      name: 'firebreak_alerts_received_total',
      help: 'Alerts received, by webhook',
      labelNames: ['integration'],
      registers: [registry],
    }),
    intakeWaiting: new Gauge({
      name: 'firebreak_intake_waiting_requests',
      help: 'Alert requests waiting for the next intake transaction, to be recorded in company',
      registers: [registry],
    }),
    escalationsFired: new Counter({
      name: 'firebreak_escalations_fired_total',
      help: 'Escalation steps that notified someone',
      registers: [registry],
    }),
    jobFailures: new Counter({
      name: 'firebreak_job_failures_total',
      help: 'Background jobs that failed, by queue',
      labelNames: ['queue'],
      registers: [registry],
    }),
  };
}

/** Queue depths, read from Redis when Prometheus scrapes (a failed read leaves the gauge empty). */
export function registerQueueDepths(
  metrics: Metrics,
  read: () => Promise<Record<string, Record<string, number>>>,
): void {
  const gauge = new Gauge({
    name: 'firebreak_queue_jobs',
    help: 'Jobs per queue and state (waiting, active, delayed, failed)',
    labelNames: ['queue', 'state'],
    registers: [metrics.registry],
    async collect() {
      try {
        const depths = await read();
        for (const [queue, states] of Object.entries(depths)) {
          for (const [state, count] of Object.entries(states)) this.set({ queue, state }, count);
        }
      } catch {
        this.reset(); // Redis unreachable: no numbers rather than stale ones
      }
    },
  });
  void gauge;
}

export { aggregateMetrics, createRequestsByProcess, GatheredRegistry, type ProcessMetrics } from './cluster';
export { type Component, type Failure, FailureLog, type FailureLogOptions } from './failure-log';
