import type { contactMethods, notificationRules } from '@firebreak/db';
import type { NotificationRules } from '@firebreak/schema';

/** A person with no rules of their own is paged as before personal paging: a chat message at once. */
export const DEFAULT_RULES: readonly notificationRules.NotificationRuleRow[] = [
  { user_id: '', position: 0, method: 'chat', delay_minutes: 0, contact_method_id: null },
];

export function effectiveRules(
  rows: readonly notificationRules.NotificationRuleRow[],
): readonly notificationRules.NotificationRuleRow[] {
  return rows.length > 0 ? rows : DEFAULT_RULES;
}

/** The person's usable contact methods a rule pages (none for chat, which is not a contact method). */
export function reachOf(
  rule: notificationRules.NotificationRuleRow,
  usable: readonly contactMethods.ContactMethodRow[],
): contactMethods.ContactMethodRow[] {
  return usable.filter(
    (m) =>
      m.user_id === rule.user_id &&
      m.type === rule.method &&
      (rule.contact_method_id === null || m.id === rule.contact_method_id),
  );
}

export function presentRules(rows: readonly notificationRules.NotificationRuleRow[]): NotificationRules {
  return {
    rules: effectiveRules(rows).map((r) => ({
      method: r.method,
      delay_minutes: r.delay_minutes,
      contact_method_id: r.contact_method_id,
    })),
    default: rows.length === 0,
  };
}
