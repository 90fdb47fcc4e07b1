import type { Queryable } from './client';

export type NotificationMethod = 'chat' | 'email' | 'sms' | 'voice' | 'push' | 'telegram';

export interface NotificationRuleRow {
  user_id: string;
  position: number;
  method: NotificationMethod;
  delay_minutes: number;
  contact_method_id: string | null;
}

export async function listRules(sql: Queryable, userId: string): Promise<NotificationRuleRow[]> {
  return sql<NotificationRuleRow[]>`
    select * from notification_rules where user_id = ${userId} order by position`;
}

/** The rules of several people at once (a step's targets), in order. */
export async function listRulesOf(
  sql: Queryable,
  userIds: readonly string[],
): Promise<NotificationRuleRow[]> {
  if (userIds.length === 0) return [];
  return sql<NotificationRuleRow[]>`
    select * from notification_rules where user_id = any(${userIds as string[]}::uuid[])
    order by user_id, position`;
}

/** Replaces a person's whole list; the caller's transaction makes it all or nothing. */
export async function replaceRules(
  sql: Queryable,
  userId: string,
  rules: readonly { method: NotificationMethod; delay_minutes: number; contact_method_id: string | null }[],
): Promise<void> {
  await sql`delete from notification_rules where user_id = ${userId}`;
  if (rules.length === 0) return;
  await sql`
    insert into notification_rules ${sql(
      rules.map((rule, position) => ({ user_id: userId, position, ...rule })),
      'user_id',
      'position',
      'method',
      'delay_minutes',
      'contact_method_id',
    )}`;
}

/** Locks the person's row so that two PUTs of one list apply one after the other. */
export async function lockRulesOwner(sql: Queryable, userId: string): Promise<boolean> {
  const rows = await sql`select 1 from users where id = ${userId} for no key update`;
  return rows.length > 0;
}
