import { z } from 'zod';
import { PageLimit } from './page';

/** The kinds of configuration the audit log records (docs/api.md#audit-log). */
export const AuditEntityType = z.enum([
  'user',
  'api_key',
  'routing_rule',
  'escalation_policy',
  'schedule',
  'integration',
  'settings',
  'import',
  'maintenance_window',
  'outgoing_webhook',
  'schedule_override',
  'calendar_feed',
  'contact_method',
  'notification_rules',
  'postmortem_template',
  'schedule_unavailability',
  'status_page_component',
]);
export type AuditEntityType = z.infer<typeof AuditEntityType>;

/** `GET /api/v1/audit-log`: every filter optional; `from` inclusive, `to` exclusive. */
export const AuditLogQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** A user's or an API key's id, or `system`. */
  actor: z.union([z.uuid(), z.literal('system')]).optional(),
  entity: AuditEntityType.optional(),
  entity_id: z.string().min(1).max(200).optional(),
  cursor: z.string().max(200).optional(),
  limit: PageLimit,
});
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

export const AuditEntry = z.object({
  id: z.uuid(),
  at: z.string(),
  actor: z.object({
    type: z.enum(['user', 'api_key', 'system']),
    id: z.uuid().nullable(),
    name: z.string().nullable(),
  }),
  entity_type: z.string(),
  entity_id: z.string().nullable(),
  action: z.string(),
  /** The entity before the change (null for a create); secret fields read "[redacted]". */
  before: z.unknown(),
  /** The entity after the change (null for a delete); secret fields read "[redacted]". */
  after: z.unknown(),
  request_id: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditLogPage = z.object({
  entries: z.array(AuditEntry),
  next_cursor: z.string().nullable(),
});
export type AuditLogPage = z.infer<typeof AuditLogPage>;
