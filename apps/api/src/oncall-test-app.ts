// Test-only: the users, schedules and escalation-policy routes on a bare app, for their own tests.
import { createBaseApp, createRequireRole } from '@firebreak/http';
import type { TestRuntime } from '@firebreak/runtime/testing';
import { type TestClient, testClient } from '@firebreak/testing';
import { addEscalationPolicyRoutes } from './routes/escalation-policies';
import { addScheduleRoutes } from './routes/schedules';
import { addUserRoutes } from './routes/users';

export function oncallTestClient(runtime: TestRuntime): TestClient {
  const deps = { ctx: runtime.ctx, ready: runtime.ready, config: runtime.config };
  const app = createBaseApp(runtime.logger, runtime.ctx.metrics);
  const requireRole = createRequireRole(runtime.ctx);
  addUserRoutes(app, deps, requireRole);
  addScheduleRoutes(app, deps, requireRole);
  addEscalationPolicyRoutes(app, deps, requireRole);
  return testClient(app);
}
