import type { notificationRules, Queryable } from '@firebreak/db';
import type { Logger } from '@firebreak/logger';
import { effectiveRules } from '../paging/rules';
import {
  lockAckCodesOf,
  type PagedStep,
  type PagedTarget,
  schedulePersonalPages,
} from '../paging/schedule-pages';

/**
 * `schedulePersonalPages` for a batch of steps, in the same order. Most people keep the default rules
 * (chat only): their steps write no page rows and their targets stay as they are, which `rules` (the
 * notification rules of every target of the batch, read once) establishes. Only a step that pages someone by another method, or someone whose rules
 * reach nothing, goes through `schedulePersonalPages` itself.
 */
export async function pageStepTargets(
  tx: Queryable,
  steps: readonly PagedStep[],
  rules: readonly notificationRules.NotificationRuleRow[],
  logger: Pick<Logger, 'warn'>,
): Promise<PagedTarget[][]> {
  const rulesOf = new Map<string, notificationRules.NotificationRuleRow[]>();
  for (const rule of rules) {
    rulesOf.set(rule.user_id, [...(rulesOf.get(rule.user_id) ?? []), rule]);
  }
  const chatOnly = (userId: string) => {
    const rules = effectiveRules(rulesOf.get(userId) ?? []);
    return rules.length > 0 && rules.every((rule) => rule.method === 'chat');
  };
  const sendsSms = (userId: string) =>
    effectiveRules(rulesOf.get(userId) ?? []).some((rule) => rule.method === 'sms');
  const simple = steps.map((step) => step.targets.every((t) => t.id === null || chatOnly(t.id)));
  // Each step locks its people's SMS codes in id order, but steps go in deadline order: two batches
  // paging Alice then Bob and Bob then Alice would deadlock. Everyone of the batch is locked first, in
  // one order.
  const texted = steps.flatMap((step, i) =>
    simple[i] ? [] : step.targets.flatMap((t) => (t.id && sendsSms(t.id) ? [t.id] : [])),
  );
  await lockAckCodesOf(tx, texted);
  const paged: PagedTarget[][] = [];
  for (const [i, step] of steps.entries()) {
    paged.push(simple[i] ? [...step.targets] : await schedulePersonalPages(tx, step, logger));
  }
  return paged;
}
