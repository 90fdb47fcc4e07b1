import { chatPlatformsOn } from '@firebreak/config';
import { type Operations, principalOf } from '@firebreak/http';
import {
  actorFromPrincipal,
  addNote,
  createIncident,
  escalateNow,
  getIncident,
  getTimelinePage,
  listIncidents,
  parseIncidentRef,
  updateIncident,
} from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { incidentOperations as op } from '../operations/incidents';

/** Members change incidents; viewers read them. */
export function addIncidentRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  // An acknowledged incident's manual escalation pages through chat only (docs/api.md#manual-escalation).
  const chatOn = chatPlatformsOn(deps.config).length > 0;
  ops.add(op.create, async (c, { body }) =>
    c.json(await createIncident(ctx, actorFromPrincipal(principalOf(c)), body), 201),
  );
  ops.add(op.list, async (c, { query }) => c.json(await listIncidents(ctx, query)));
  ops.add(op.get, async (c, { params }) => c.json(await getIncident(ctx, parseIncidentRef(params.id))));
  ops.add(op.update, async (c, { params, body }) =>
    c.json(await updateIncident(ctx, actorFromPrincipal(principalOf(c)), parseIncidentRef(params.id), body)),
  );
  ops.add(op.timeline, async (c, { params, query }) =>
    c.json(await getTimelinePage(ctx, parseIncidentRef(params.id), query)),
  );
  ops.add(op.addNote, async (c, { params, body }) =>
    c.json(await addNote(ctx, actorFromPrincipal(principalOf(c)), parseIncidentRef(params.id), body), 201),
  );
  ops.add(op.escalate, async (c, { params, body }) =>
    c.json(
      await escalateNow(ctx, actorFromPrincipal(principalOf(c)), parseIncidentRef(params.id), {
        expectedTier: body.expected_tier,
        chat: chatOn,
      }),
    ),
  );
}
