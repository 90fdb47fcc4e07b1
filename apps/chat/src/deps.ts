import type { Config } from '@firebreak/config';
import type { Readiness } from '@firebreak/schema';
import type { ServiceContext } from '@firebreak/services';

export interface ChatDeps {
  ctx: ServiceContext;
  ready: () => Promise<Readiness>;
  config: Config;
}
