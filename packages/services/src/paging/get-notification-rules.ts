import { contactMethods, notificationRules } from '@firebreak/db';
import type { NotificationRules } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import type { PagingOwner } from './access';
import { effectiveRules, presentRules, reachOf } from './rules';

/**
 * `GET /api/v1/users/{id}/notification-rules`: the person's rules, or the default when they set none,
 * and whether they still reach anything (a method they name may have been removed or disabled since).
 */
export async function getNotificationRules(
  ctx: ServiceContext,
  owner: PagingOwner,
): Promise<NotificationRules> {
  const [rows, usable] = await Promise.all([
    notificationRules.listRules(ctx.sql, owner.id),
    contactMethods.listUsableContactMethods(ctx.sql, [owner.id]),
  ]);
  const rules = effectiveRules(rows).map((r) => ({ ...r, user_id: owner.id }));
  const reaches = rules.some((r) => r.method === 'chat' || reachOf(r, usable).length > 0);
  return { ...presentRules(rows), reaches_nothing: !reaches };
}
