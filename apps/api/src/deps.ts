import type { Config } from '@firebreak/config';
import type { Readiness } from '@firebreak/schema';
import type { ServiceContext } from '@firebreak/services';

/** Everything the API's routes need, handed in by `main.ts` (or a test). Nothing reads process.env. */
export interface ApiDeps {
  ctx: ServiceContext;
  ready: () => Promise<Readiness>;
  config: Pick<
    Config,
    | 'publicUrl'
    | 'rateLimitPerMinute'
    | 'trustProxy'
    | 'chat'
    | 'ai'
    | 'metricsToken'
    | 'oidc'
    | 'passwordLogin'
    | 'paging'
  > &
    // Optional: an app built without them (older tests) has only what Settings → Telegram holds, and no Teams.
    Partial<Pick<Config, 'telegram' | 'teams'>>;
  /** The built web UI (`apps/web/dist`) to serve at `/`; absent: no UI (tests of the API alone). */
  webRoot?: string;
}
