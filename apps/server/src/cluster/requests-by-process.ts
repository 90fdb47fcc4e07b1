import type { HttpApp } from '@firebreak/http';
import { createRequestsByProcess, type Runtime } from '@firebreak/runtime';

/** Counts each request against this HTTP process's slot (`firebreak_http_requests_by_process_total`). */
export function countRequestsByProcess(app: HttpApp, metrics: Runtime['ctx']['metrics'], slot: string): void {
  const requests = createRequestsByProcess(metrics.registry);
  app.use('*', async (_c, next) => {
    await next();
    requests.inc({ process: slot });
  });
}
