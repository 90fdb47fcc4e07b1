import { changeOriginOf, type Operations } from '@firebreak/http';
import { importFromOnCall, importFromOpsgenie, importFromPagerDuty } from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { importOperations as op } from '../operations/imports';

/**
 * The Grafana OnCall import, admin only (it creates users, admins among them). Neither the new users'
 * setup tokens in the answer nor the OnCall API token are logged.
 */
export function addImportRoutes(ops: Operations, deps: ApiDeps): void {
  ops.add(op.oncall, async (c, { body }) =>
    c.json(
      await importFromOnCall(deps.ctx, {
        url: body.url,
        apiToken: body.api_token,
        dryRun: body.dry_run,
        origin: changeOriginOf(c),
      }),
    ),
  );
  // The Opsgenie API key goes to Opsgenie only. The keys of the integrations it creates are stored like
  // any integration's, and neither appears in the answer or a log line.
  ops.add(op.opsgenie, async (c, { body }) =>
    c.json(
      await importFromOpsgenie(deps.ctx, {
        url: body.url,
        apiKey: body.api_key,
        dryRun: body.dry_run,
        origin: changeOriginOf(c),
      }),
    ),
  );
  // The PagerDuty API token goes to PagerDuty only; the integration keys it imports are stored like any
  // integration's key and appear neither in the answer nor in a log line.
  ops.add(op.pagerduty, async (c, { body }) =>
    c.json(
      await importFromPagerDuty(deps.ctx, {
        url: body.url,
        apiToken: body.api_token,
        dryRun: body.dry_run,
        origin: changeOriginOf(c),
      }),
    ),
  );
}
