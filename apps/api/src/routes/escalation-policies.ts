import { type AppEnv, type RequireRole, readJson } from '@firebreak/http';
import { CreateEscalationPolicyInput, UpdateEscalationPolicyInput } from '@firebreak/schema';
import {
  createEscalationPolicy,
  deleteEscalationPolicy,
  getEscalationPolicy,
  listEscalationPolicies,
  updateEscalationPolicy,
} from '@firebreak/services';
import type { Hono } from 'hono';
import type { ApiDeps } from '../deps';
import { uuidParam } from './params';

/** CONTRACT.md §9. Admins change escalation policies; members and viewers read them. */
export function addEscalationPolicyRoutes(app: Hono<AppEnv>, deps: ApiDeps, requireRole: RequireRole): void {
  const { ctx } = deps;

  app.get('/api/v1/escalation-policies', requireRole('viewer'), async (c) => {
    return c.json({ escalation_policies: await listEscalationPolicies(ctx) });
  });

  app.post('/api/v1/escalation-policies', requireRole('admin'), async (c) => {
    const input = await readJson(c, CreateEscalationPolicyInput);
    return c.json(await createEscalationPolicy(ctx, input), 201);
  });

  app.get('/api/v1/escalation-policies/:id', requireRole('viewer'), async (c) => {
    return c.json(await getEscalationPolicy(ctx, uuidParam(c, 'id')));
  });

  app.patch('/api/v1/escalation-policies/:id', requireRole('admin'), async (c) => {
    const id = uuidParam(c, 'id');
    const input = await readJson(c, UpdateEscalationPolicyInput);
    return c.json(await updateEscalationPolicy(ctx, id, input));
  });

  app.delete('/api/v1/escalation-policies/:id', requireRole('admin'), async (c) => {
    await deleteEscalationPolicy(ctx, uuidParam(c, 'id'));
    return c.body(null, 204);
  });
}
