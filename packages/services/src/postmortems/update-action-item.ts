import { actionItems, type incidents } from '@firebreak/db';
import { type ActionItem, AppError, type UpdateActionItemInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { requireOwner } from './action-item-owner';
import { requireIncident } from './incident';
import { presentActionItem } from './present';
import { refusingWriteErrors } from './write-errors';

/** `PATCH …/postmortem/action-items/{item_id}`: `null` clears the owner or the due date. */
export async function updateActionItem(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
  itemId: string,
  input: UpdateActionItemInput,
): Promise<ActionItem> {
  const incident = await requireIncident(ctx.sql, ref);
  await requireOwner(ctx.sql, input.owner_id);
  // Only the fields the request names, so a concurrent change of another field stands.
  const found = await refusingWriteErrors(
    actionItems.updateActionItem(ctx.sql, incident.id, itemId, {
      title: input.title,
      ownerId: input.owner_id,
      dueDate: input.due_date,
      status: input.status,
      at: ctx.now(),
    }),
  );
  if (!found) throw actionItemNotFound(itemId, incident.number);
  const row = await actionItems.findActionItem(ctx.sql, incident.id, itemId);
  if (!row) throw actionItemNotFound(itemId, incident.number);
  return presentActionItem(row);
}

export function actionItemNotFound(itemId: string, incidentNumber: number): AppError {
  return new AppError('not_found', `Incident #${incidentNumber} has no action item ${itemId}.`);
}
