import type { PagerDutyIntegrationItem, PagerDutyServiceItem } from '@firebreak/schema';
import type { PlannedIntegrationEntry, PlannedKeyedIntegration } from '../oncall-import/types';

/**
 * Service integrations (docs/import-pagerduty.md#senders-change-only-the-host). An Events API v2 or v1
 * integration becomes an integration of type `pagerduty` with PagerDuty's own integration key, so its
 * senders keep their routing key and change only the host; PagerDuty's Events API paths are served here
 * as they are. Every other integration is listed with what to do about it.
 */

export const EVENTS_V2_PATH = '/v2/enqueue';
export const EVENTS_V1_PATH = '/generic/2010-04-15/create_event.json';

const keyedTypes: Record<string, { path: string; note: string }> = {
  events_api_v2_inbound_integration: {
    path: EVENTS_V2_PATH,
    note: 'senders keep their routing key; change the host events.pagerduty.com to this Firebreak (PUBLIC_URL)',
  },
  generic_events_api_inbound_integration: {
    path: EVENTS_V1_PATH,
    note: 'senders keep their service key; change the host events.pagerduty.com to this Firebreak (PUBLIC_URL)',
  },
};

const EMAIL_NOTE =
  'e-mail is not received here: point the tool at the intake URL of an integration created on the Integrations page instead';
const OTHER_NOTE =
  'not imported: create an integration on the Integrations page and point the tool at its intake URL';
const DISABLED_NOTE =
  '; its service is disabled in PagerDuty, so it is created disabled here: enable it when its senders should page again';
const NO_KEY_NOTE =
  'PagerDuty sent no integration_key: create a pagerduty integration here and give senders its key';

/** `events_api_v2_inbound_integration_reference` → `events_api_v2_inbound_integration`. */
export function integrationType(type: string): string {
  return type.replace(/_reference$/, '');
}

export interface IntegrationPlan {
  candidates: PlannedKeyedIntegration[];
  entries: PlannedIntegrationEntry[];
}

export function planPagerDutyIntegrations(
  services: readonly PagerDutyServiceItem[],
  integrations: Readonly<Record<string, readonly PagerDutyIntegrationItem[]>>,
): IntegrationPlan {
  const plan: IntegrationPlan = { candidates: [], entries: [] };
  for (const service of services) {
    // PagerDuty's integrations have no switch of their own; a disabled service opens no incidents.
    const enabled = service.status !== 'disabled';
    // The integrations read whole (with their keys); else the service's references, which have none.
    const items =
      integrations[service.id] ?? service.integrations.map((ref) => ({ ...ref, name: ref.summary }));
    for (const item of items) {
      const type = integrationType(item.type);
      const label = item.name?.trim() || item.summary?.trim() || item.id;
      const name = `${service.name} / ${label}`;
      const keyed = keyedTypes[type];
      const key = (item as PagerDutyIntegrationItem).integration_key?.trim();
      if (keyed && key) {
        const sourceId = `${service.id}/${item.id}`;
        plan.candidates.push({
          sourceId,
          name,
          type: 'pagerduty',
          key,
          enabled,
          escalationPolicySourceId: service.escalation_policy?.id ?? null,
        });
        plan.entries.push({
          name,
          type,
          webhook_path: keyed.path,
          note: enabled ? keyed.note : `${keyed.note}${DISABLED_NOTE}`,
          keyedSourceId: sourceId,
        });
      } else if (keyed) {
        plan.entries.push({ name, type, webhook_path: keyed.path, note: NO_KEY_NOTE });
      } else {
        const email = type.includes('email');
        plan.entries.push({ name, type, webhook_path: null, note: email ? EMAIL_NOTE : OTHER_NOTE });
      }
    }
  }
  return plan;
}
