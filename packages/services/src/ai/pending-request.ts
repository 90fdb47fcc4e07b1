import { ai } from '@firebreak/db';
import type { ServiceContext } from '../context';

export type AiRequest = ai.AiRequestRow;
export type AiRequestKind = ai.AiKind;
export type HandoffDigestRequest = ai.HandoffDigestRow;

/**
 * The request an AI job was queued for, if it still waits for a result: a job that arrives twice, or
 * after the request finished, or names a request of another kind, finds nothing to do.
 */
export async function findPendingAiRequest(
  ctx: ServiceContext,
  id: string,
  kind: AiRequestKind,
): Promise<AiRequest | undefined> {
  const request = await ai.findAiRequest(ctx.sql, id);
  return request?.status === 'pending' && request.kind === kind ? request : undefined;
}

/** The window a handoff digest request covers. */
export async function findHandoffDigestRequest(
  ctx: ServiceContext,
  id: string,
): Promise<HandoffDigestRequest | undefined> {
  return ai.findHandoffDigest(ctx.sql, id);
}
