import { contactMethods, notificationRules } from '@firebreak/db';
import { AppError, type NotificationRule, type NotificationRules } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import type { PagingOwner } from './access';
import type { ConfiguredMethods } from './configured';
import { presentRules } from './rules';

/**
 * `PUT /api/v1/users/{id}/notification-rules`: replaces the whole list, in order. Every rule must be
 * able to reach the person, or the PUT changes nothing (400 naming each rule that cannot): its method
 * configured on this server and a verified contact method of that type (the one it names, or any), and
 * for chat a chat id. A chat page goes with the escalation step itself, so a chat rule waits 0 minutes
 * (docs/paging.md#rules). An empty list restores the default.
 */
export async function setNotificationRules(
  ctx: ServiceContext,
  owner: PagingOwner,
  rules: readonly NotificationRule[],
  configured: ConfiguredMethods,
  origin: ChangeOrigin,
): Promise<NotificationRules> {
  return ctx.sql.begin(async (tx) => {
    if (!(await notificationRules.lockRulesOwner(tx, owner.id))) {
      throw new AppError('not_found', `No user "${owner.id}".`);
    }
    const usable = (await contactMethods.listUsableContactMethods(tx, [owner.id])).filter(
      (m) => m.user_id === owner.id,
    );
    const problems = rules.flatMap((rule, i) =>
      ruleProblems(rule, owner, usable, configured).map((message) => ({ path: `rules.${i}`, message })),
    );
    if (problems.length > 0) {
      throw new AppError(
        'validation_failed',
        problems.map((p) => `${p.path}: ${p.message}`).join('; '),
        problems,
      );
    }
    const before = presentRules(await notificationRules.listRules(tx, owner.id));
    const rows = rules.map((r) => ({
      method: r.method,
      delay_minutes: r.delay_minutes,
      contact_method_id: r.contact_method_id ?? null,
    }));
    await notificationRules.replaceRules(tx, owner.id, rows);
    const after = presentRules(await notificationRules.listRules(tx, owner.id));
    await recordAudit(tx, ctx, {
      origin,
      entity: 'notification_rules',
      entityId: owner.id,
      action: 'update',
      before,
      after,
    });
    return after;
  });
}

function ruleProblems(
  rule: NotificationRule,
  owner: PagingOwner,
  usable: readonly contactMethods.ContactMethodRow[],
  configured: ConfiguredMethods,
): string[] {
  if (rule.method === 'chat') {
    const problems: string[] = [];
    if (!owner.slack_user_id && !owner.teams_user_id) {
      problems.push('chat needs the user’s chat id (slack_user_id or teams_user_id)');
    }
    if (rule.delay_minutes !== 0) problems.push('chat pages go when the step fires: delay_minutes must be 0');
    if (rule.contact_method_id) problems.push('chat takes no contact_method_id');
    return problems;
  }
  if (!configured.has(rule.method)) return [`${rule.method} is not configured on this server`];
  if (rule.contact_method_id) {
    const named = usable.find((m) => m.id === rule.contact_method_id);
    if (!named)
      return [`contact method ${rule.contact_method_id} is not a verified contact method of this user`];
    if (named.type !== rule.method)
      return [`contact method ${rule.contact_method_id} is ${named.type}, not ${rule.method}`];
    return [];
  }
  return usable.some((m) => m.type === rule.method) ? [] : [`${rule.method} has no verified contact method`];
}
