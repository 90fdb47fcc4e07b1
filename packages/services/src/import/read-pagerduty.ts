import {
  formatIssuePath,
  PagerDutyEscalationPolicyItem,
  PagerDutyIntegrationItem,
  PagerDutyOverrideItem,
  PagerDutyScheduleItem,
  PagerDutyServiceItem,
  type PagerDutySource,
  PagerDutyUserItem,
} from '@firebreak/schema';
import type { PagerDutyClient } from './pagerduty-client';
import { notPagerDuty } from './pagerduty-errors';

/**
 * Reads what the import uses (docs/import-pagerduty.md#what-the-importer-reads), one request after the
 * other to stay well inside PagerDuty's rate limit: users, schedules with their layers, each schedule's
 * overrides from now to 90 days ahead (the window PagerDuty needs, as `since` and `until` are required),
 * escalation policies, services, each service integration (only the single read carries the key), and
 * every user a layer or rule names who is not in the user list (404: deleted). Incidents are not read.
 */

/** How far ahead overrides are read: the ones an admin must recreate by hand soon. */
export const OVERRIDE_WINDOW_DAYS = 90;

export async function readPagerDuty(client: PagerDutyClient, now: Date): Promise<PagerDutySource> {
  const users = parseAll('/users', PagerDutyUserItem, await client.list('/users', 'users'));
  const listed = parseAll(
    '/schedules',
    PagerDutyScheduleItem,
    await client.list('/schedules', 'schedules', { 'include[]': 'schedule_layers' }),
  );
  const schedules: PagerDutySource['schedules'] = [];
  for (const schedule of listed) {
    // Some API versions leave the layers out of the list; the single read always has them.
    if (schedule.schedule_layers) schedules.push(schedule);
    else
      schedules.push(
        parseOne(
          `/schedules/${schedule.id}`,
          PagerDutyScheduleItem,
          await mustGet(client, `/schedules/${schedule.id}`, 'schedule'),
        ),
      );
  }
  const until = new Date(now.getTime() + OVERRIDE_WINDOW_DAYS * 86_400_000);
  const overrides: PagerDutySource['overrides'] = {};
  for (const schedule of schedules) {
    const path = `/schedules/${schedule.id}/overrides`;
    const items = await client.list(path, 'overrides', {
      since: now.toISOString(),
      until: until.toISOString(),
    });
    overrides[schedule.id] = parseAll(path, PagerDutyOverrideItem, items);
  }
  const policies = parseAll(
    '/escalation_policies',
    PagerDutyEscalationPolicyItem,
    await client.list('/escalation_policies', 'escalation_policies'),
  );
  const services = parseAll('/services', PagerDutyServiceItem, await client.list('/services', 'services'));
  const integrations: PagerDutySource['integrations'] = {};
  for (const service of services) {
    integrations[service.id] = [];
    for (const reference of service.integrations) {
      const path = `/services/${service.id}/integrations/${reference.id}`;
      const item = await client.get(path, 'integration');
      // Deleted between the two reads: nothing to point senders at.
      if (item !== undefined) integrations[service.id]!.push(parseOne(path, PagerDutyIntegrationItem, item));
    }
  }
  const deleted_user_ids: string[] = [];
  const known = new Set(users.map((user) => user.id));
  for (const id of referencedUserIds(schedules, overrides, policies)) {
    if (known.has(id)) continue;
    const item = await client.get(`/users/${id}`, 'user');
    if (item === undefined) deleted_user_ids.push(id);
    else users.push(parseOne(`/users/${id}`, PagerDutyUserItem, item));
    known.add(id);
  }
  return {
    users,
    schedules,
    overrides,
    escalation_policies: policies,
    services,
    integrations,
    deleted_user_ids,
  };
}

function referencedUserIds(
  schedules: PagerDutySource['schedules'],
  overrides: PagerDutySource['overrides'],
  policies: PagerDutySource['escalation_policies'],
): Set<string> {
  const ids = new Set<string>();
  for (const schedule of schedules) {
    for (const layer of schedule.schedule_layers ?? []) for (const { user } of layer.users) ids.add(user.id);
  }
  for (const list of Object.values(overrides)) for (const override of list) ids.add(override.user.id);
  for (const policy of policies) {
    for (const rule of policy.escalation_rules) {
      for (const target of rule.targets) if (target.type.startsWith('user')) ids.add(target.id);
    }
  }
  return ids;
}

async function mustGet(client: PagerDutyClient, path: string, key: string): Promise<unknown> {
  const item = await client.get(path, key);
  if (item === undefined) throw notPagerDuty(path, 'answered HTTP 404 for an item it had just listed');
  return item;
}

/** A zod schema, as far as reading an item needs one (services do not depend on zod itself). */
interface Parser<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}

function parseOne<T>(path: string, schema: Parser<T>, item: unknown): T {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const at = formatIssuePath(issue.path);
  throw notPagerDuty(path, `sent an item this import cannot read (${at}: ${issue.message})`);
}

function parseAll<T>(path: string, schema: Parser<T>, items: unknown[]): T[] {
  return items.map((item, index) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    const at = formatIssuePath([index, ...issue.path]);
    throw notPagerDuty(path, `sent an item this import cannot read (${at}: ${issue.message})`);
  });
}
