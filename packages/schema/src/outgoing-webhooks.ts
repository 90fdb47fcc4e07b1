import { z } from 'zod';

/**
 * Outgoing webhooks (docs/integrations/outgoing-webhooks.md): URLs that receive incident events.
 * Admins only; the secret is write-only (`has_secret` says whether one is set).
 */
export const outgoingWebhookEvents = [
  'incident.created',
  'incident.acknowledged',
  'incident.resolved',
  'incident.escalated',
  'incident.updated',
  'incident.note_added',
] as const;
export const OutgoingWebhookEvent = z.enum(outgoingWebhookEvents);
export type OutgoingWebhookEvent = z.infer<typeof OutgoingWebhookEvent>;

const name = z.string().trim().min(1, 'must not be empty').max(200);

// http(s) only. Credentials in the URL are refused: fetch will not send them, and the URL is shown to
// every admin, so a receiver authenticates deliveries by their signature instead.
const url = z
  .string()
  .trim()
  .max(2048)
  .superRefine((value, ctx) => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http:// or https:// URL' });
      return;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: 'must be an http:// or https:// URL' });
    } else if (parsed.username || parsed.password) {
      ctx.addIssue({ code: 'custom', message: 'must not carry credentials; set a secret instead' });
    }
  });

// A list without repeats, in the catalog's order, so the stored list reads the same however it was sent.
const events = z
  .array(OutgoingWebhookEvent)
  .min(1, 'give at least one event')
  .transform((list) => outgoingWebhookEvents.filter((event) => list.includes(event)));

// At least 16 characters, as every secret of the installation (docs/api.md#settings).
const secret = z.string().min(16, 'must be at least 16 characters').max(512);

export const CreateOutgoingWebhookInput = z.object({
  name,
  url,
  events,
  secret: secret.nullable().optional(),
  enabled: z.boolean().default(true),
});
export type CreateOutgoingWebhookInput = z.infer<typeof CreateOutgoingWebhookInput>;

export const UpdateOutgoingWebhookInput = z
  .object({
    name: name.optional(),
    url: url.optional(),
    events: events.optional(),
    /** `null` removes the secret: deliveries are then sent unsigned. */
    secret: secret.nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'give at least one of name, url, events, secret, enabled',
  });
export type UpdateOutgoingWebhookInput = z.infer<typeof UpdateOutgoingWebhookInput>;

export const OutgoingWebhook = z.object({
  id: z.uuid(),
  name: z.string(),
  url: z.string(),
  events: z.array(OutgoingWebhookEvent),
  has_secret: z.boolean(),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type OutgoingWebhook = z.infer<typeof OutgoingWebhook>;

export const WebhookDeliveryStatus = z.enum(['pending', 'delivered', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** One delivery of one event: its last attempt's outcome, and when the next is due while pending. */
export const WebhookDelivery = z.object({
  id: z.uuid(),
  event: OutgoingWebhookEvent,
  incident_id: z.uuid(),
  status: WebhookDeliveryStatus,
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_duration_ms: z.number().int().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const ListWebhookDeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListWebhookDeliveriesQuery = z.infer<typeof ListWebhookDeliveriesQuery>;
