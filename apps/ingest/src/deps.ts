import type { Readiness } from '@firebreak/schema';
import type { ServiceContext } from '@firebreak/services';

export interface IngestDeps {
  ctx: ServiceContext;
  ready: () => Promise<Readiness>;
}
