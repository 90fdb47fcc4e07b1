import { z } from 'zod';
import { AlertSeverity } from './alert';
import { IncidentSeverity } from './incident';

/**
 * Routing rules (docs/api.md#routing-rules). Every given criterion must match; `{}` matches every
 * alert; a label value `"*"` means "the label is present".
 */
export const MatchCriteria = z
  .object({
    source: z
      .union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).min(1).max(50)])
      .optional(),
    labels: z
      .record(z.string().min(1).max(256), z.string().max(4096))
      .refine((labels) => Object.keys(labels).length <= 50, 'at most 50 labels')
      .optional(),
    severity: z.array(AlertSeverity).min(1).optional(),
    /** Alerts received through this integration's key (or any of these); never a fixed path's alerts. */
    integration_id: z.union([z.uuid(), z.array(z.uuid()).min(1).max(50)]).optional(),
  })
  .strict();
export type MatchCriteria = z.infer<typeof MatchCriteria>;

export const DEFAULT_GROUP_WINDOW_SECONDS = 3600;

export const RuleActions = z
  .object({
    create_incident: z.boolean().optional(),
    suppress: z.boolean().optional(),
    severity: IncidentSeverity.optional(),
    escalation_policy_id: z.uuid().optional(),
    group_by: z.array(z.string().min(1).max(256)).min(1).max(10).optional(),
    group_window_seconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .optional(),
    /**
     * One incident per alert even when the sender grouped its alerts (an Alertmanager or Grafana
     * notification's `groupKey`, docs/api.md#routing-rules); without it the sender's group is one incident.
     */
    split_sender_groups: z.boolean().optional(),
  })
  .strict()
  .superRefine((actions, ctx) => {
    if (actions.suppress && actions.create_incident) {
      ctx.addIssue({
        code: 'custom',
        path: ['suppress'],
        message: 'a rule cannot both suppress and create incidents',
      });
    }
    if ((actions.group_by || actions.group_window_seconds) && !actions.create_incident) {
      ctx.addIssue({ code: 'custom', path: ['group_by'], message: 'grouping needs create_incident: true' });
    }
    if (actions.split_sender_groups !== undefined && !actions.create_incident) {
      ctx.addIssue({
        code: 'custom',
        path: ['split_sender_groups'],
        message: 'split_sender_groups needs create_incident: true',
      });
    }
  });
export type RuleActions = z.infer<typeof RuleActions>;

const name = z.string().trim().min(1, 'must not be empty').max(200);
const priority = z.number().int().min(0).max(1_000_000);

export const CreateRoutingRuleInput = z.object({
  name,
  priority,
  enabled: z.boolean().default(true),
  match_criteria: MatchCriteria.default({}),
  actions: RuleActions,
});
export type CreateRoutingRuleInput = z.infer<typeof CreateRoutingRuleInput>;

export const UpdateRoutingRuleInput = z
  .object({
    name: name.optional(),
    priority: priority.optional(),
    enabled: z.boolean().optional(),
    match_criteria: MatchCriteria.optional(),
    actions: RuleActions.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'give at least one of name, priority, enabled, match_criteria, actions',
  });
export type UpdateRoutingRuleInput = z.infer<typeof UpdateRoutingRuleInput>;

export const RoutingRule = z.object({
  id: z.uuid(),
  name: z.string(),
  priority: z.number().int(),
  enabled: z.boolean(),
  match_criteria: MatchCriteria,
  actions: RuleActions,
  created_at: z.string(),
});
export type RoutingRule = z.infer<typeof RoutingRule>;

/** A sample alert for "which rule would take this?" (the rules editor's preview). */
export const RoutingPreviewInput = z.object({
  source: z.string().max(200).nullable().default(null),
  labels: z.record(z.string(), z.string()).default({}),
  severity: AlertSeverity.default('warning'),
  integration_id: z.uuid().nullable().default(null),
});
export type RoutingPreviewInput = z.infer<typeof RoutingPreviewInput>;
