// Test-only: for route tests that follow each alert to an incident of its own. Two newer defaults would
// otherwise merge them: the alerts of one Alertmanager or Grafana group make one incident, and beyond
// 10 incidents in 5 minutes storm mode takes the rest in (docs/api.md#routing-rules, #storm-mode).
// Both have tests of their own (tests/alertmanager-groups.test.ts, tests/storms.test.ts).
import {
  listRoutingRules,
  type ServiceContext,
  updateRoutingRule,
  updateSettings,
} from '@firebreak/services';

export async function oneIncidentPerAlert(ctx: ServiceContext): Promise<void> {
  await updateSettings(ctx, { storm_mode_enabled: false });
  for (const rule of await listRoutingRules(ctx)) {
    if (rule.actions.create_incident && !rule.actions.group_by) {
      await updateRoutingRule(ctx, rule.id, { actions: { ...rule.actions, split_sender_groups: true } });
    }
  }
}
