import { chat } from '@firebreak/db';
import type { ChatSession } from './session';

/**
 * A chat failure retrying cannot fix, on the timeline: one `chat_failed` entry per incident, platform,
 * operation and code, so a dead channel or a revoked token does not flood the timeline. False when the
 * entry already existed.
 */
export async function recordChatFailure(
  session: ChatSession,
  failure: { operation: string; code: string },
): Promise<boolean> {
  return chat.recordChatFailureOnce(
    session.sql,
    session.incidentId,
    { ...failure, platform: session.platform },
    session.ctx.now(),
  );
}
