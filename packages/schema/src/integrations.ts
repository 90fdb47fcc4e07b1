import { z } from 'zod';
import { AlertSeverity } from './alert';

/**
 * Integrations as objects (docs/integrations/keyed-intake.md): each has its own intake key, so a sender
 * is known by the URL it posts to. The type decides what that URL accepts and is fixed at creation.
 */
export const IntegrationType = z.enum([
  'generic',
  'alertmanager',
  'grafana',
  'cloudwatch',
  'pagerduty',
  'opsgenie',
  'heartbeat',
]);
export type IntegrationType = z.infer<typeof IntegrationType>;

const name = z.string().trim().min(1, 'must not be empty').max(200);
const labels = z
  .record(z.string().min(1).max(256), z.string().max(4096))
  .refine((value) => Object.keys(value).length <= 50, 'at most 50 labels');
const intervalSeconds = z
  .number()
  .int()
  .min(30)
  .max(30 * 24 * 3600);
const graceSeconds = z
  .number()
  .int()
  .min(0)
  .max(7 * 24 * 3600);

export const DEFAULT_HEARTBEAT_GRACE_SECONDS = 60;

/** The heartbeat-only fields: given for another type, each is a problem of its own. */
const heartbeatFields = ['interval_seconds', 'grace_seconds', 'severity'] as const;

export const CreateIntegrationInput = z
  .object({
    name,
    type: IntegrationType,
    enabled: z.boolean().default(true),
    escalation_policy_id: z.uuid().nullable().default(null),
    labels: labels.default({}),
    interval_seconds: intervalSeconds.optional(),
    grace_seconds: graceSeconds.optional(),
    severity: AlertSeverity.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.type === 'heartbeat') {
      if (input.interval_seconds === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['interval_seconds'],
          message: 'a heartbeat needs interval_seconds',
        });
      }
      return;
    }
    for (const field of heartbeatFields) {
      if (input[field] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: 'only a heartbeat integration has this field',
        });
      }
    }
  });
export type CreateIntegrationInput = z.infer<typeof CreateIntegrationInput>;

/** Whether the heartbeat fields apply is checked against the stored type by the service. */
export const UpdateIntegrationInput = z
  .object({
    name: name.optional(),
    enabled: z.boolean().optional(),
    escalation_policy_id: z.uuid().nullable().optional(),
    labels: labels.optional(),
    interval_seconds: intervalSeconds.optional(),
    grace_seconds: graceSeconds.optional(),
    severity: AlertSeverity.optional(),
    // Declared only to be refused: unknown fields are otherwise ignored, and a type change silently
    // ignored would leave the sender posting a body the URL no longer reads.
    type: z.unknown().optional(),
  })
  .superRefine((input, ctx) => {
    if (input.type !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'the type is fixed after creation' });
      return;
    }
    const { type: _type, ...changes } = input;
    if (!Object.values(changes).some((value) => value !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message:
          'give at least one of name, enabled, escalation_policy_id, labels, interval_seconds, grace_seconds, severity',
      });
    }
  });
export type UpdateIntegrationInput = z.infer<typeof UpdateIntegrationInput>;

/** A heartbeat's state: waiting (no ping yet), up, or missed (the deadline fired; the next ping clears it). */
export const HeartbeatState = z.object({
  status: z.enum(['waiting', 'up', 'missed']),
  last_ping_at: z.iso.datetime({ offset: true }).nullable(),
  next_due_at: z.iso.datetime({ offset: true }).nullable(),
});
export type HeartbeatState = z.infer<typeof HeartbeatState>;

/**
 * An integration as the API answers it. Admins see `key` and `intake_url` whole; members and viewers
 * see them masked (the key is the sender's only credential).
 */
export const Integration = z.object({
  id: z.uuid(),
  name: z.string(),
  type: IntegrationType,
  enabled: z.boolean(),
  key: z.string(),
  intake_url: z.string(),
  escalation_policy_id: z.uuid().nullable(),
  labels: z.record(z.string(), z.string()),
  created_at: z.iso.datetime({ offset: true }),
  /** The newest `received_at` of its alerts; null before the first. */
  last_alert_at: z.iso.datetime({ offset: true }).nullable(),
  interval_seconds: z.number().int().nullable(),
  grace_seconds: z.number().int().nullable(),
  severity: AlertSeverity.nullable(),
  heartbeat: HeartbeatState.nullable(),
});
export type Integration = z.infer<typeof Integration>;

export const IntegrationList = z.object({ integrations: z.array(Integration) });

/** What a heartbeat ping answers: up, and when the next ping is due at the latest. */
export const HeartbeatPingAnswer = z.object({
  status: z.literal('up'),
  last_ping_at: z.iso.datetime({ offset: true }),
  next_due_at: z.iso.datetime({ offset: true }),
});
