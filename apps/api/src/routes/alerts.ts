import type { Operations } from '@firebreak/http';
import { getIncidentAlertsPage, listAlerts, parseIncidentRef } from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { alertOperations as op } from '../operations/incidents';

/** The alert list, and the alerts of one incident. */
export function addAlertRoutes(ops: Operations, deps: ApiDeps): void {
  ops.add(op.list, async (c, { query }) => c.json(await listAlerts(deps.ctx, query)));
  ops.add(op.ofIncident, async (c, { params, query }) =>
    c.json(await getIncidentAlertsPage(deps.ctx, parseIncidentRef(params.id), query)),
  );
}
