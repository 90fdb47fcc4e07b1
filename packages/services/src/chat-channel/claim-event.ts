import { chatEvents } from '@firebreak/db';
import type { ServiceContext } from '../context';

/**
 * Claims an Events API delivery: true the first time its `event_id` is seen, false for the chat
 * service's retries of it (it retries answers it found slow).
 */
export async function claimChatEvent(ctx: ServiceContext, eventId: string): Promise<boolean> {
  return chatEvents.claimChatEvent(ctx.sql, eventId, ctx.now());
}
