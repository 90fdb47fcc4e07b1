import { type AppEnv, type RequireRole, readJson } from '@firebreak/http';
import { HandoffDigestInput } from '@firebreak/schema';
import {
  getAiJob,
  getHandoffDigest,
  getPostmortem,
  parseIncidentRef,
  requestHandoffDigest,
  requestPostmortem,
  requestSummary,
  requireAi,
} from '@firebreak/services';
import type { Hono } from 'hono';
import type { ApiDeps } from '../deps';
import { uuidParam } from './params';

/** CONTRACT.md §10. No provider configured → 409 `ai_not_configured` on the three POSTs. */
export function addAiRoutes(app: Hono<AppEnv>, deps: ApiDeps, requireRole: RequireRole): void {
  const { ctx } = deps;
  const configured = () => requireAi(deps.config.ai.provider !== 'none');

  app.post('/api/v1/incidents/:id/summary', requireRole('member'), async (c) => {
    configured();
    return c.json(await requestSummary(ctx, parseIncidentRef(c.req.param('id'))), 202);
  });

  app.post('/api/v1/incidents/:id/postmortem', requireRole('member'), async (c) => {
    configured();
    return c.json(await requestPostmortem(ctx, parseIncidentRef(c.req.param('id'))), 202);
  });

  app.get('/api/v1/incidents/:id/postmortem', requireRole('viewer'), async (c) =>
    c.json(await getPostmortem(ctx, parseIncidentRef(c.req.param('id')))),
  );

  app.post('/api/v1/handoff-digests', requireRole('member'), async (c) => {
    configured();
    const input = await readJson(c, HandoffDigestInput);
    return c.json(await requestHandoffDigest(ctx, input), 202);
  });

  app.get('/api/v1/handoff-digests/:id', requireRole('viewer'), async (c) =>
    c.json(await getHandoffDigest(ctx, uuidParam(c, 'id'))),
  );

  app.get('/api/v1/ai-jobs/:id', requireRole('viewer'), async (c) =>
    c.json(await getAiJob(ctx, uuidParam(c, 'id'))),
  );
}
