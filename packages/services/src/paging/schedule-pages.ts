import { randomInt } from 'node:crypto';
import { contactMethods, notificationRules, pageDeliveries, type Queryable } from '@firebreak/db';
import type { Logger } from '@firebreak/logger';
import type { EscalationTarget } from '../escalation/targets';
import { effectiveRules, reachOf } from './rules';

export interface PagedStep {
  incidentId: string;
  round: number;
  tier: number;
  firedAt: Date;
  targets: readonly EscalationTarget[];
}

/** A step's target as the timeline records it; `chat_page: false` when their rules leave chat out. */
export type PagedTarget = EscalationTarget & { chat_page?: false };

/**
 * Writes a step's personal pages (docs/paging.md#timers): one `page_deliveries` row per target, rule
 * and contact method, due `delay_minutes` after the step fired. Called in the transaction that claims
 * the step, so the pages exist if and only if the step does, and a retried step inserts nothing twice
 * (the rows' unique key). Chat is not a row: the step's chat notice sends it, to the targets whose rules
 * include chat (the default), and the targets returned say who that is.
 */
export async function schedulePersonalPages(
  tx: Queryable,
  step: PagedStep,
  logger: Pick<Logger, 'warn'>,
): Promise<PagedTarget[]> {
  const ids = [...new Set(step.targets.map((t) => t.id).filter((id): id is string => id !== null))];
  const rulesByUser = groupBy(await notificationRules.listRulesOf(tx, ids), (r) => r.user_id);
  // Most people keep the default (chat only): then there is no contact to look up, and a step costs one
  // query more than before personal paging, not two.
  const anyOtherMethod = [...rulesByUser.values()].some((rules) => rules.some((r) => r.method !== 'chat'));
  const usable = anyOtherMethod ? await contactMethods.listUsableContactMethods(tx, ids) : [];
  const rows: pageDeliveries.NewPageDelivery[] = [];
  for (const userId of ids) {
    for (const rule of effectiveRules(rulesByUser.get(userId) ?? [])) {
      if (rule.method === 'chat') continue;
      for (const contact of reachOf({ ...rule, user_id: userId }, usable)) {
        rows.push({
          incidentId: step.incidentId,
          round: step.round,
          tier: step.tier,
          userId,
          rulePosition: rule.position,
          method: contact.type,
          contactMethodId: contact.id,
          dueAt: new Date(step.firedAt.getTime() + rule.delay_minutes * 60_000),
          ackCode: null,
        });
      }
    }
  }
  await assignAckCodes(tx, step.incidentId, rows);
  await pageDeliveries.insertDeliveries(tx, rows, step.firedAt);
  const reached = new Set(rows.map((r) => r.userId));
  const warned = new Set<string>();
  return step.targets.map((target) => {
    const rules = target.id ? effectiveRules(rulesByUser.get(target.id) ?? []) : [];
    if (!target.id || rules.some((r) => r.method === 'chat')) return target;
    if (reached.has(target.id)) return { ...target, chat_page: false };
    // Rules that were valid when saved may reach nothing now (a method disabled, deleted, or no longer
    // configured on this server). A person paged nowhere is worse than a chat message they did not ask
    // for, so they get the step's chat message, as with no rules at all.
    if (!warned.has(target.id)) {
      warned.add(target.id);
      logger.warn(
        { incident_id: step.incidentId, user_id: target.id, round: step.round, tier: step.tier },
        'paging rules reach nothing',
      );
    }
    return target;
  });
}

/**
 * SMS pages carry a code the person can text back ("ACK 4821"): one per person and incident, unique
 * among that person's open pages. A call carries none: it acknowledges on key 1, and a code nobody reads
 * out would only be one more guessable number. People are locked in id order, so two incidents paging the
 * same people at once wait for each other instead of deadlocking or picking the same code. A transaction
 * paging several steps takes all its locks first with `lockAckCodesOf` (locking a person again is free).
 */
export async function lockAckCodesOf(tx: Queryable, userIds: readonly string[]): Promise<void> {
  for (const userId of [...new Set(userIds)].sort()) await pageDeliveries.lockCodesOf(tx, userId);
}

async function assignAckCodes(
  tx: Queryable,
  incidentId: string,
  rows: pageDeliveries.NewPageDelivery[],
): Promise<void> {
  const needing = [...new Set(rows.filter((r) => r.method === 'sms').map((r) => r.userId))].sort();
  for (const userId of needing) {
    await pageDeliveries.lockCodesOf(tx, userId);
    const open = await pageDeliveries.listOpenCodes(tx, userId);
    const code =
      open.find((o) => o.incident_id === incidentId)?.ack_code ??
      freeCode(new Set(open.map((o) => o.ack_code)));
    for (const row of rows) {
      if (row.userId === userId && row.method === 'sms') row.ackCode = code;
    }
  }
}

/** A 4-digit code not in `taken` (a person has far fewer than 9000 open pages). */
function freeCode(taken: ReadonlySet<string>): string {
  for (;;) {
    const code = String(randomInt(1000, 10_000));
    if (!taken.has(code)) return code;
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
}
