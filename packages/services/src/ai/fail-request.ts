import { ai } from '@firebreak/db';
import type { ServiceContext } from '../context';

/** Longest reason kept on a failed request (provider errors can quote whole responses). */
const MAX_REASON_LENGTH = 1000;

/** After the last try: the request is `failed` with the reason, which the API and the UI show. */
export async function failAiRequest(ctx: ServiceContext, requestId: string, reason: string): Promise<void> {
  await ai.finishAiRequest(ctx.sql, requestId, {
    status: 'failed',
    error: reason.slice(0, MAX_REASON_LENGTH),
    at: ctx.now(),
  });
}
