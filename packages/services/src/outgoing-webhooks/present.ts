import type { outgoingWebhooks } from '@firebreak/db';
import type { OutgoingWebhook, OutgoingWebhookEvent, WebhookDelivery } from '@firebreak/schema';
import { REDACTED } from '../audit';

/** The secret is write-only: the API says whether one is set, never what it is. */
export function presentWebhook(row: outgoingWebhooks.OutgoingWebhookRow): OutgoingWebhook {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events as OutgoingWebhookEvent[],
    has_secret: row.secret !== null,
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * A webhook URL as the audit log keeps it: scheme, host and port only. Many receivers put their
 * credential in the path or query (a chat service's incoming-webhook URL is itself the secret), and
 * the log is append-only, so whatever follows the host is never written; user and password neither.
 */
export function auditableUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return REDACTED;
  }
  const hasMore = parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '';
  return hasMore ? `${parsed.origin}/${REDACTED}` : parsed.origin;
}

/**
 * A webhook as its audit row shows it: the API's view with the URL cut to its host (auditableUrl),
 * plus the secret as a field, which recordAudit redacts (the log then says a secret was set or
 * changed, never what it is).
 */
export function webhookAuditView(row: outgoingWebhooks.OutgoingWebhookRow) {
  return { ...presentWebhook(row), url: auditableUrl(row.url), secret: row.secret };
}

export function presentDelivery(row: outgoingWebhooks.DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event: row.event as OutgoingWebhookEvent,
    incident_id: row.incident_id,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_duration_ms: row.last_duration_ms,
    created_at: row.created_at.toISOString(),
    delivered_at: row.delivered_at?.toISOString() ?? null,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
  };
}
