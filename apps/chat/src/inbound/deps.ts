import type { Config } from '@firebreak/config';
import type { Readiness } from '@firebreak/schema';
import type { ServiceContext } from '@firebreak/services';

/** What the inbound chat routes need; the chat app and the embedded server hand in their own. */
export interface ChatInboundDeps {
  ctx: ServiceContext;
  ready: () => Promise<Readiness>;
  config: Pick<Config, 'chat' | 'teams' | 'publicUrl' | 'port' | 'ai'>;
}
