import type { Readiness } from '@firebreak/schema';
import type { ServiceContext } from '@firebreak/services';

export interface WorkerDeps {
  ctx: ServiceContext;
  ready: () => Promise<Readiness>;
  /** `METRICS_TOKEN`: when set, `/metrics` needs it as a bearer token. */
  metricsToken?: string;
}
