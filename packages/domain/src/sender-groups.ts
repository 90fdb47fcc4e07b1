import { createHash } from 'node:crypto';
import { groupKey } from './routing';

/**
 * The group key stored for an alert its sender grouped (docs/api.md#routing-rules): Alertmanager and
 * Grafana name each notification's group (`groupKey`, kept as annotation `group_key`), and its alerts
 * make one incident unless the rule says otherwise. A groupKey is the group's route and labels only
 * (`{}:{namespace="kube-system"}`), the same in every cluster deployed from the same configuration, so
 * the group is the groupKey within the integration it came through: `integration` is the alert's
 * `integration` (the keyed integration's id, else the fixed path's name). A groupKey may be of any
 * length, so what is stored (and indexed) is a prefix and a digest; the readable key stays on each
 * alert. The prefix keeps it apart from a rule's own `group_by` keys, which are JSON arrays.
 */
export function senderGroupKey(
  integration: string,
  annotations: Readonly<Record<string, unknown>>,
): string | null {
  const key = annotations.group_key;
  if (typeof key !== 'string' || key.length === 0) return null;
  // JSON, so that no integration name and groupKey pair reads as another.
  return `sender:${createHash('sha256')
    .update(JSON.stringify([integration, key]))
    .digest('hex')}`;
}

export interface GroupingActions {
  group_by?: readonly string[] | undefined;
  split_sender_groups?: boolean | undefined;
}

/**
 * The group an alert a rule takes belongs to, null for none (one incident per alert): the rule's own
 * `group_by` wins (across integrations, as the operator chose); else the sender's group within the
 * alert's integration, unless the rule splits sender groups.
 */
export function incidentGroupKey(
  actions: GroupingActions,
  alert: {
    integration: string;
    labels: Record<string, string>;
    annotations: Readonly<Record<string, unknown>>;
  },
): string | null {
  if (actions.group_by) return groupKey(actions.group_by, alert.labels);
  if (actions.split_sender_groups) return null;
  return senderGroupKey(alert.integration, alert.annotations);
}
