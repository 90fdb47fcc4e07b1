import { rowKey } from '../../lib/list-edit';
import {
  type ContactMethod,
  type NotificationMethod,
  type NotificationRule,
  notificationMethods,
  type PagingMethods,
} from '../../lib/oncall-types';

/**
 * A person's notification rules as the My on-call page edits them: an ordered list of "after N
 * minutes, reach me by M", each through one contact or every verified contact of that kind. The list
 * is sent whole (PUT replaces it); the server refuses a method it cannot send or a contact that is not
 * verified, and the page shows that answer. A chat message goes the moment the escalation step fires,
 * so a chat rule has no delay of its own.
 */
export interface RuleRow {
  key: string;
  method: NotificationMethod;
  delayMinutes: string;
  /** Empty: every verified contact of the method's kind. */
  contactId: string;
}

export const MAX_DELAY_MINUTES = 1440;

export function rowsOf(rules: readonly NotificationRule[]): RuleRow[] {
  return rules.map((rule) => ({
    key: rowKey(),
    method: rule.method,
    delayMinutes: String(rule.delay_minutes),
    contactId: rule.contact_method_id ?? '',
  }));
}

/** The next rule someone adds: the following method a few minutes after the last. */
export function newRow(rows: readonly RuleRow[]): RuleRow {
  const last = rows.at(-1);
  const delay = last ? Math.min(MAX_DELAY_MINUTES, (Number(last.delayMinutes) || 0) + 5) : 0;
  return { key: rowKey(), method: last ? 'email' : 'chat', delayMinutes: String(delay), contactId: '' };
}

export function rulesOf(rows: readonly RuleRow[]): { rules: NotificationRule[] } | { error: string } {
  const rules: NotificationRule[] = [];
  for (const [index, row] of rows.entries()) {
    if (row.method === 'chat') {
      rules.push({ method: 'chat', delay_minutes: 0 });
      continue;
    }
    const delay = Number(row.delayMinutes);
    if (!row.delayMinutes.trim() || !Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_MINUTES) {
      return { error: `Rule ${index + 1}: the delay is whole minutes from 0 to ${MAX_DELAY_MINUTES}.` };
    }
    if (!notificationMethods.includes(row.method)) return { error: `Rule ${index + 1}: choose a method.` };
    rules.push({
      method: row.method,
      delay_minutes: delay,
      ...(row.contactId ? { contact_method_id: row.contactId } : {}),
    });
  }
  return { rules };
}

/** The contacts a rule of this method can name. */
export function contactsFor(method: NotificationMethod, contacts: readonly ContactMethod[]): ContactMethod[] {
  return method === 'chat' ? [] : contacts.filter((c) => c.type === method);
}

/** How a contact reads in a list: its label or address (for push, the push service's origin). */
export function describeContact(contact: ContactMethod): string {
  if (contact.label) return contact.type === 'push' ? contact.label : `${contact.label} (${contact.address})`;
  return contact.type === 'push' ? `Browser via ${contact.address}` : contact.address;
}

/** Which methods this server can send, from `GET /api/v1/paging/methods`; none known before it answers. */
export function configuredMethods(body: PagingMethods | undefined): Set<NotificationMethod> {
  return new Set(body?.methods ?? []);
}
