import { actionItems, type incidents } from '@firebreak/db';
import type { ActionItem, CreateActionItemInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { requireOwner } from './action-item-owner';
import { requireIncident } from './incident';
import { presentActionItem } from './present';
import { refusingWriteErrors } from './write-errors';

/**
 * `POST /api/v1/incidents/{id}/postmortem/action-items`. Items belong to the incident, so they may be
 * noted before the document is written, and they are tracked across incidents (`GET /api/v1/action-items`).
 */
export async function createActionItem(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
  input: CreateActionItemInput,
): Promise<ActionItem> {
  const incident = await requireIncident(ctx.sql, ref);
  await requireOwner(ctx.sql, input.owner_id);
  // The owner may be deleted after the check: the foreign key answers then (400, as the check would).
  const id = await refusingWriteErrors(
    actionItems.insertActionItem(ctx.sql, {
      incidentId: incident.id,
      title: input.title,
      ownerId: input.owner_id ?? null,
      dueDate: input.due_date ?? null,
      at: ctx.now(),
    }),
  );
  const row = await actionItems.findActionItem(ctx.sql, incident.id, id);
  return presentActionItem(row!);
}
