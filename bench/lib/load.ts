import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH';
  headers?: Record<string, string>;
  body?: string;
  /** A fresh body for every request (e.g. unique external_ids); overrides `body`. */
  makeBody?: () => string;
  connections?: number;
  /** Fixed request rate across all connections (open model); unset = as fast as possible. */
  overallRate?: number;
  durationSeconds?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The slowest answer of the run. */
  maxMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  total: number;
}

/** Drives one endpoint with autocannon from this process (the server runs in another). */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    ...(options.makeBody
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({ ...request, body: options.makeBody!() }),
            },
          ],
        }
      : {}),
    connections: options.connections ?? 16,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    duration: options.durationSeconds ?? 10,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    total: result.requests.total,
  };
}
