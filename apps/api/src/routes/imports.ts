import type { Operations } from '@firebreak/http';
import { importFromOnCall } from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { importOperations as op } from '../operations/imports';

/**
 * The Grafana OnCall import, admin only (it creates users, admins among them). Neither the new users'
 * setup tokens in the answer nor the OnCall API token are logged.
 */
export function addImportRoutes(ops: Operations, deps: ApiDeps): void {
  ops.add(op.oncall, async (c, { body }) =>
    c.json(
      await importFromOnCall(deps.ctx, { url: body.url, apiToken: body.api_token, dryRun: body.dry_run }),
    ),
  );
}
