import type { OutgoingWebhookEvent } from '@firebreak/schema';
import type { OutgoingWebhook, OutgoingWebhookInput } from '../../lib/api';

/**
 * An outgoing webhook as the editor holds it, and the requests it makes. The secret is write-only:
 * the API never shows it, so an empty field on edit keeps the stored one, and removing it is a
 * deliberate choice of its own (docs/api.md, "Outgoing webhooks").
 */
export const webhookEvents = [
  'incident.created',
  'incident.acknowledged',
  'incident.resolved',
  'incident.escalated',
  'incident.updated',
  'incident.note_added',
] as const satisfies readonly OutgoingWebhookEvent[];

export const eventLabel: Record<OutgoingWebhookEvent, string> = {
  'incident.created': 'opened',
  'incident.acknowledged': 'acknowledged',
  'incident.resolved': 'resolved',
  'incident.escalated': 'escalated',
  'incident.updated': 'changed (title, severity, description, commander)',
  'incident.note_added': 'note added',
};

export interface WebhookForm {
  name: string;
  url: string;
  events: OutgoingWebhookEvent[];
  enabled: boolean;
  secret: string;
  removeSecret: boolean;
}

export const emptyWebhookForm = (): WebhookForm => ({
  name: '',
  url: '',
  events: ['incident.created', 'incident.acknowledged', 'incident.resolved'],
  enabled: true,
  secret: '',
  removeSecret: false,
});

export const formOfWebhook = (webhook: OutgoingWebhook): WebhookForm => ({
  name: webhook.name,
  url: webhook.url,
  events: [...webhook.events],
  enabled: webhook.enabled,
  secret: '',
  removeSecret: false,
});

type Made = { input: OutgoingWebhookInput } | { error: string };

/** The body of a create (`existing` null) or of a PATCH; the secret only when one was typed or removed. */
export function webhookInputOf(form: WebhookForm, existing: OutgoingWebhook | null): Made {
  if (form.events.length === 0) return { error: 'Choose at least one event.' };
  const input: OutgoingWebhookInput = {
    name: form.name.trim(),
    url: form.url.trim(),
    // In the catalog's order, as the API stores them.
    events: webhookEvents.filter((event) => form.events.includes(event)),
    enabled: form.enabled,
  };
  if (existing && form.removeSecret) input.secret = null;
  else if (form.secret) input.secret = form.secret;
  return { input };
}
