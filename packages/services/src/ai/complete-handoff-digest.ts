import { ai } from '@firebreak/db';
import type { ServiceContext } from '../context';

/** Lands a handoff digest's text and marks its request `done`; a finished request changes nothing. */
export async function completeHandoffDigest(
  ctx: ServiceContext,
  requestId: string,
  text: string,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    if (!(await ai.finishAiRequest(tx, requestId, { status: 'done', at: ctx.now() }))) return;
    await ai.setHandoffDigestContent(tx, requestId, text);
  });
}
