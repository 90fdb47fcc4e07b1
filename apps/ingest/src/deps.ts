import type { Config } from '@firebreak/config';
import type { Readiness } from '@firebreak/schema';
import type { ServiceContext } from '@firebreak/services';

export interface IngestDeps {
  ctx: ServiceContext;
  ready: () => Promise<Readiness>;
  config: Pick<Config, 'snsCertUrlPattern' | 'dbMaxOpenConns'>;
}
