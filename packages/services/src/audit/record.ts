import { auditLog, type Queryable } from '@firebreak/db';
import type { ServiceContext } from '../context';
import type { ChangeOrigin } from './origin';
import { redactSecrets } from './redact';

/** The kinds of configuration the audit log records (docs/api.md#audit-log). */
export type AuditEntity =
  | 'user'
  | 'api_key'
  | 'routing_rule'
  | 'escalation_policy'
  | 'schedule'
  | 'integration'
  | 'settings'
  | 'import'
  | 'maintenance_window'
  | 'outgoing_webhook'
  | 'schedule_override'
  | 'calendar_feed'
  | 'contact_method'
  | 'notification_rules'
  | 'postmortem_template'
  | 'schedule_unavailability'
  | 'status_page_component';

export type AuditAction = 'create' | 'update' | 'delete' | 'rotate' | 'revoke' | 'end' | 'import';

export interface AuditChange {
  origin: ChangeOrigin;
  entity: AuditEntity;
  entityId: string | null;
  action: AuditAction;
  /** The entity as it was (null for a create), as the API shows it. */
  before: unknown;
  /** The entity as it is now (null for a delete), as the API shows it. */
  after: unknown;
}

/**
 * The one way to write the audit log. `tx` must be the transaction of the change itself: the row then
 * commits with the change or not at all. Secret fields are redacted here, so no caller can leak one.
 */
export async function recordAudit(
  tx: Queryable,
  ctx: Pick<ServiceContext, 'now'>,
  change: AuditChange,
): Promise<void> {
  const { actor } = change.origin;
  await auditLog.insertAuditRow(tx, {
    at: ctx.now(),
    actorType: actor.type,
    actorId: actor.type === 'system' ? null : actor.id,
    actorName: actor.name,
    entityType: change.entity,
    entityId: change.entityId,
    action: change.action,
    before: redactSecrets(change.before ?? null),
    after: redactSecrets(change.after ?? null),
    requestId: change.origin.requestId,
  });
}
