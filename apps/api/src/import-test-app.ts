// Test-only: the import and setup routes, with the routes a test reads the imported records back
// through, on a bare app (until they are registered in app.ts, and for tests outside this package).
import { createBaseApp, createRequireRole } from '@firebreak/http';
import type { TestRuntime } from '@firebreak/runtime/testing';
import { type TestClient, testClient } from '@firebreak/testing';
import { addAuthRoutes } from './routes/auth';
import { addEscalationPolicyRoutes } from './routes/escalation-policies';
import { addImportRoutes } from './routes/imports';
import { addScheduleRoutes } from './routes/schedules';
import { addSetupRoutes } from './routes/setup';
import { addUserRoutes } from './routes/users';

export function importTestClient(runtime: TestRuntime): TestClient {
  const deps = { ctx: runtime.ctx, ready: runtime.ready, config: runtime.config };
  const app = createBaseApp(runtime.logger, runtime.ctx.metrics);
  const requireRole = createRequireRole(runtime.ctx);
  addAuthRoutes(app, deps, requireRole);
  addSetupRoutes(app, deps);
  addImportRoutes(app, deps, requireRole);
  addUserRoutes(app, deps, requireRole);
  addScheduleRoutes(app, deps, requireRole);
  addEscalationPolicyRoutes(app, deps, requireRole);
  return testClient(app);
}
