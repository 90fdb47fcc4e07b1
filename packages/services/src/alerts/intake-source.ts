import type { WebhookIntegrationId } from '@firebreak/domain';

/**
 * Where a batch of alerts came in: one of the fixed webhook paths, or an integration's intake key
 * (docs/integrations/keyed-intake.md). Everything recording and routing need to know about it.
 */
export interface IntakeSource {
  /**
   * The dedup scope stored on each alert (`alerts.integration`): the fixed path's name, or the
   * integration's id, so rotating its key keeps deduplicating against the same alerts.
   */
  scope: string;
  /** The integration whose key received the batch; null for a fixed path. */
  integrationId: string | null;
  /** The sender's kind, for metrics and logs (bounded: never an id). */
  type: string;
  /** Added to every alert; they win over a sender's label of the same name. */
  labels: Readonly<Record<string, string>>;
  /** Pages whom the routing rule that opens an incident names no policy for. */
  escalationPolicyId: string | null;
}

/** A fixed webhook path: no integration, no labels of its own, no policy of its own. */
export function fixedWebhookSource(id: WebhookIntegrationId): IntakeSource {
  return { scope: id, integrationId: null, type: id, labels: {}, escalationPolicyId: null };
}
