import { type AppEnv, type RequireRole, readJson } from '@firebreak/http';
import { ImportOnCallInput } from '@firebreak/schema';
import { importFromOnCall } from '@firebreak/services';
import type { Hono } from 'hono';
import type { ApiDeps } from '../deps';

/**
 * CONTRACT.md §11: the Grafana OnCall import, admin only (it creates users, admins among them). The
 * answer holds the new users' setup tokens, shown this once; neither they nor the OnCall API token
 * are logged. 200 for a dry run and a real import alike: the answer is a report, not one resource.
 */
export function addImportRoutes(app: Hono<AppEnv>, deps: ApiDeps, requireRole: RequireRole): void {
  app.post('/api/v1/imports/oncall', requireRole('admin'), async (c) => {
    const input = await readJson(c, ImportOnCallInput);
    const answer = await importFromOnCall(deps.ctx, {
      url: input.url,
      apiToken: input.api_token,
      dryRun: input.dry_run,
    });
    return c.json(answer);
  });
}
