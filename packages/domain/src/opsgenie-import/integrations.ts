import type { OpsgenieEscalationItem, OpsgenieIntegrationItem } from '@firebreak/schema';
import { webhookIntegrations } from '../alert-sources/webhook-integrations';
import type { PlannedIntegrationEntry, PlannedKeyedIntegration } from '../oncall-import/types';

/**
 * Opsgenie integrations (docs/import-opsgenie.md#integrations). Those whose senders call Opsgenie's Alert
 * API with the integration's key — `API`, and `Prometheus` (Alertmanager's `opsgenie_configs`) — become
 * `opsgenie` integrations here WITH THE SAME KEY, so a sender changes only the host it posts to. Every
 * other type is listed with where its sender should post instead; nothing is created for it.
 */

/** Where senders of an imported key post (this service's Opsgenie Alert API). */
export const OPSGENIE_ALERTS_PATH = '/v2/alerts';
const KEYED_TYPES = new Set(['api', 'prometheus']);
const KEYED_NOTE =
  'senders keep their GenieKey and change only the host: the Opsgenie API URL becomes this service’s address';
const DISABLED_NOTE =
  '; it is disabled in Opsgenie, so it is created disabled here: enable it when its senders should page again';
const KEYED_WITHOUT_KEY =
  'Opsgenie did not show this integration’s API key; create an opsgenie integration here and give its senders the new key';
const KEYED_HINT = 'create an integration of the matching type here and point the sender at its URL';

const { generic, grafana, cloudwatch } = webhookIntegrations;
const others: Record<string, { path: string | null; note: string }> = {
  email: { path: null, note: 'this service receives no e-mail; send the alerts to a webhook instead' },
  grafana: { path: grafana.path, note: KEYED_HINT },
  amazoncloudwatch: { path: cloudwatch.path, note: `${KEYED_HINT} (CloudWatch through SNS)` },
  cloudwatch: { path: cloudwatch.path, note: `${KEYED_HINT} (CloudWatch through SNS)` },
  webhook: {
    path: null,
    note: 'an outgoing webhook of Opsgenie: register its URL under outgoing webhooks here',
  },
};

export function isKeyedOpsgenieType(type: string): boolean {
  return KEYED_TYPES.has(type.trim().toLowerCase());
}

export interface OpsgenieIntegrationPlan {
  candidates: PlannedKeyedIntegration[];
  entries: PlannedIntegrationEntry[];
}

/**
 * An integration owned by a team sends that team's alerts; when the team owns exactly one escalation this
 * import creates, the new integration escalates with that policy.
 */
export function planOpsgenieIntegrations(
  source: readonly OpsgenieIntegrationItem[],
  escalations: readonly OpsgenieEscalationItem[],
  importedPolicies: ReadonlySet<string>,
): OpsgenieIntegrationPlan {
  const byTeam = new Map<string, string[]>();
  for (const escalation of escalations) {
    const team = escalation.ownerTeam?.id;
    if (team && importedPolicies.has(escalation.id))
      byTeam.set(team, [...(byTeam.get(team) ?? []), escalation.id]);
  }
  const plan: OpsgenieIntegrationPlan = { candidates: [], entries: [] };
  for (const integration of source) {
    const { id, name, type } = integration;
    const enabled = integration.enabled !== false;
    if (isKeyedOpsgenieType(type)) {
      const key = integration.apiKey?.trim();
      if (!key) {
        plan.entries.push({ name, type, webhook_path: OPSGENIE_ALERTS_PATH, note: KEYED_WITHOUT_KEY });
        continue;
      }
      const policies = integration.teamId ? (byTeam.get(integration.teamId) ?? []) : [];
      plan.candidates.push({
        sourceId: id,
        name,
        type: 'opsgenie',
        key,
        enabled,
        escalationPolicySourceId: policies.length === 1 ? policies[0]! : null,
      });
      plan.entries.push({
        name,
        type,
        webhook_path: OPSGENIE_ALERTS_PATH,
        note: enabled ? KEYED_NOTE : `${KEYED_NOTE}${DISABLED_NOTE}`,
        keyedSourceId: id,
      });
      continue;
    }
    const other = others[type.trim().toLowerCase()] ?? { path: generic.path, note: KEYED_HINT };
    plan.entries.push({ name, type, webhook_path: other.path, note: other.note });
  }
  return plan;
}
