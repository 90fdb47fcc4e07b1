import type { Logger } from '@firebreak/logger';
import type { Principal } from '@firebreak/services';

/** Per-request values every Firebreak route can read with `c.get(...)`. */
export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    principal: Principal | undefined;
  };
}
