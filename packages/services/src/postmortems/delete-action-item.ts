import { actionItems, type incidents } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { requireIncident } from './incident';
import { actionItemNotFound } from './update-action-item';

/** `DELETE …/postmortem/action-items/{item_id}`. */
export async function deleteActionItem(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
  itemId: string,
): Promise<void> {
  const incident = await requireIncident(ctx.sql, ref);
  if (!(await actionItems.deleteActionItem(ctx.sql, incident.id, itemId))) {
    throw actionItemNotFound(itemId, incident.number);
  }
}
