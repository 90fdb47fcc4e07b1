import {
  AggregatorRegistry,
  Counter,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from 'prom-client';

/** One process's metrics as `registry.getMetricsAsJSON()` gives them: what crosses the IPC channel. */
export type ProcessMetrics = MetricObjectWithValues<MetricValue<string>>[];

/**
 * The registry of a process that is one of several serving the same port (`pnpm start` with
 * HTTP_PROCESSES above 1): its metrics are its own, but a scrape reaching it must see every process,
 * so its exposition is gathered by whoever holds them all (the cluster's primary).
 */
export class GatheredRegistry extends Registry {
  constructor(private readonly gather: () => Promise<string>) {
    super();
  }

  override metrics(): Promise<string> {
    return this.gather();
  }
}

/**
 * Several processes' metrics as one exposition, merged by prom-client's own rules per metric (counters
 * and histograms summed, `firebreak_component_up` the minimum, version info the first).
 */
export function aggregateMetrics(perProcess: ProcessMetrics[]): Promise<string> {
  return AggregatorRegistry.aggregate(perProcess).metrics();
}

/**
 * `firebreak_http_requests_by_process_total{process}`: requests each HTTP process answered, so one scrape
 * (gathered from every process) shows whether the load is spread. Labelled by slot (1…HTTP_PROCESSES),
 * not pid, so a replaced process continues its predecessor's series instead of adding one per crash.
 */
export function createRequestsByProcess(registry: Registry): Counter<'process'> {
  return new Counter({
    name: 'firebreak_http_requests_by_process_total',
    help: 'HTTP requests answered, by the HTTP process of `pnpm start` that answered them',
    labelNames: ['process'],
    registers: [registry],
  });
}
