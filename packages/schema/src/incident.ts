import { z } from 'zod';
import { IncidentChatChannel } from './chat-platforms';
import { PageLimit } from './page';

export const incidentSeverities = ['critical', 'high', 'medium', 'low'] as const;
export const IncidentSeverity = z.enum(incidentSeverities);
export type IncidentSeverity = z.infer<typeof IncidentSeverity>;

export const incidentStatuses = ['triggered', 'acknowledged', 'resolved'] as const;
export const IncidentStatus = z.enum(incidentStatuses);
export type IncidentStatus = z.infer<typeof IncidentStatus>;

export const IncidentSource = z.enum(['manual', 'alert', 'chat']);
export type IncidentSource = z.infer<typeof IncidentSource>;

const title = z.string().trim().min(1, 'must not be empty').max(500);
const description = z.string().max(20_000);

export const CreateIncidentInput = z.object({
  title,
  severity: IncidentSeverity,
  description: description.optional(),
  commander_id: z.uuid().optional(),
});
export type CreateIncidentInput = z.infer<typeof CreateIncidentInput>;

export const UpdateIncidentInput = z
  .object({
    status: IncidentStatus.optional(),
    severity: IncidentSeverity.optional(),
    title: title.optional(),
    description: description.optional(),
    commander_id: z.uuid().nullable().optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'give at least one of status, severity, title, description, commander_id',
  });
export type UpdateIncidentInput = z.infer<typeof UpdateIncidentInput>;

export const ListIncidentsQuery = z.object({
  status: IncidentStatus.optional(),
  severity: IncidentSeverity.optional(),
  limit: PageLimit,
  cursor: z.string().max(200).optional(),
});
export type ListIncidentsQuery = z.infer<typeof ListIncidentsQuery>;

/**
 * `limit` and `cursor` of an incident's timeline and alerts (docs/api.md#incidents): 100 by default and
 * at most 500, since one incident can gather tens of thousands of rows.
 */
export const incidentItemPageLimits = { min: 1, max: 500, default: 100 } as const;
export const IncidentItemsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(incidentItemPageLimits.min)
    .max(incidentItemPageLimits.max)
    .default(incidentItemPageLimits.default),
  cursor: z.string().max(300).optional(),
});
export type IncidentItemsQuery = z.infer<typeof IncidentItemsQuery>;

export const AddNoteInput = z.object({
  text: z.string().trim().min(1, 'must not be empty').max(20_000),
});
export type AddNoteInput = z.infer<typeof AddNoteInput>;

/** `POST /api/v1/incidents/{id}/escalate` (docs/api.md#manual-escalation); `{}` pages the next tier. */
export const EscalateInput = z.strictObject({
  /** The tier (1-based) the caller saw as next (`next_tier`): a tier paged meanwhile answers 409. */
  expected_tier: z.number().int().min(1).optional(),
});
export type EscalateInput = z.infer<typeof EscalateInput>;

export const PersonRef = z.object({ id: z.uuid(), name: z.string(), email: z.string() });

/**
 * Set on a storm incident only (docs/api.md#storm-mode): the alerts that would each have opened an
 * incident while the storm lasted, linked to this one instead. `calmed_at` is null while it lasts.
 */
export const IncidentStorm = z
  .object({
    absorbed_alerts: z.number().int(),
    started_at: z.string(),
    last_absorbed_at: z.string(),
    calmed_at: z.string().nullable(),
  })
  .meta({ description: 'Present on a storm incident only (docs/api.md#storm-mode); null otherwise.' });
export type IncidentStorm = z.infer<typeof IncidentStorm>;

/** The incident as the API shows it (docs/api.md#incidents). */
export const Incident = z.object({
  id: z.uuid(),
  number: z.number().int(),
  title: z.string(),
  description: z.string(),
  severity: IncidentSeverity,
  status: IncidentStatus,
  created_at: z.string(),
  acknowledged_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  commander: PersonRef.nullable(),
  /** The first of `chat_channels` (Slack's when both platforms are on). */
  chat_channel: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Its channel on each chat platform (docs/teams.md). */
  chat_channels: z.array(IncidentChatChannel),
  escalation_policy_id: z.uuid().nullable(),
  /** The tier a manual escalation pages now (1-based), null when none is left (docs/api.md#manual-escalation). */
  next_tier: z.number().int().min(1).nullable().optional(),
  alert_count: z.number().int(),
  all_alerts_resolved: z.boolean(),
  mttr_seconds: z.number().int().nullable(),
  source: IncidentSource,
  storm: IncidentStorm.nullable(),
});
export type Incident = z.infer<typeof Incident>;

export const IncidentList = z.object({ incidents: z.array(Incident), next_cursor: z.string().nullable() });

export const actorTypes = ['user', 'system', 'chat', 'ai'] as const;
export const Actor = z.object({
  type: z.enum(actorTypes),
  id: z.string().optional(),
  name: z.string().optional(),
});
export type Actor = z.infer<typeof Actor>;

/** The kinds of timeline entry and their data (docs/api.md#timeline). */
export const timelineEntryTypes = [
  'incident_created',
  'status_changed',
  'severity_changed',
  'message',
  'alert_linked',
  'commander_assigned',
  'ai_summary',
  'escalation_triggered',
  'chat_channel_created',
  'chat_failed',
  'alerts_all_resolved',
  'postmortem_drafted',
  'postmortem_status_changed',
  'handoff_digest',
  'storm_started',
  'storm_calmed',
  'chat_message',
  'status_update_published',
  'attachment_added',
  'attachment_deleted',
] as const;
export const TimelineEntryType = z.enum(timelineEntryTypes);
export type TimelineEntryType = z.infer<typeof TimelineEntryType>;

export const TimelineEntry = z.object({
  id: z.uuid(),
  incident_id: z.uuid(),
  type: TimelineEntryType,
  created_at: z.string(),
  actor: Actor,
  data: z.record(z.string(), z.unknown()),
});
export type TimelineEntry = z.infer<typeof TimelineEntry>;
