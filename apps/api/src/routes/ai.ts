import type { Operations } from '@firebreak/http';
import {
  getAiJob,
  getHandoffDigest,
  parseIncidentRef,
  requestHandoffDigest,
  requestPostmortem,
  requestSummary,
  requireAi,
} from '@firebreak/services';
import type { MiddlewareHandler } from 'hono';
import type { ApiDeps } from '../deps';
import { aiOperations as op } from '../operations/ai';

/** AI drafts. No provider configured → 409 `ai_not_configured` on the three POSTs, before anything else. */
export function addAiRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  const configured: MiddlewareHandler = async (_c, next) => {
    requireAi(deps.config.ai.provider !== 'none');
    await next();
  };
  const before = [configured];

  ops.add(
    op.summary,
    async (c, { params }) => c.json(await requestSummary(ctx, parseIncidentRef(params.id)), 202),
    {
      before,
    },
  );
  ops.add(
    op.requestPostmortem,
    async (c, { params }) => c.json(await requestPostmortem(ctx, parseIncidentRef(params.id)), 202),
    { before },
  );
  ops.add(
    op.requestHandoffDigest,
    async (c, { body }) => c.json(await requestHandoffDigest(ctx, body), 202),
    {
      before,
    },
  );
  ops.add(op.getHandoffDigest, async (c, { params }) => c.json(await getHandoffDigest(ctx, params.id)));
  ops.add(op.getJob, async (c, { params }) => c.json(await getAiJob(ctx, params.id)));
}
