import {
  escalationPolicies,
  integrations,
  type Queryable,
  scheduleOverrides,
  schedules,
  users,
} from '@firebreak/db';
import type { ImportPlan, PlannedLayer, PlannedPerson, PlannedTier } from '@firebreak/domain';
import type { LayerInput, TierInput } from '@firebreak/schema';
import { hashGeneratedPasswords } from '../auth/passwords';
import { toNewTiers } from '../oncall/escalation-tiers';
import { toNewLayers } from '../oncall/schedule-layers';
import { issueSetupTokens } from './setup-tokens';

/**
 * Carries out an import plan inside the caller's transaction, with the same statements and reference
 * checks as the users, schedules, policies and integrations API (`toNewLayers`, `toNewTiers` lock the users and
 * schedules they link). Answers the ids the records got.
 */

export interface ImportIds {
  /** Lowercased e-mail → user id: the existing users, plus those created. */
  userIds: ReadonlyMap<string, string>;
  /** OnCall schedule id → id of the schedule created from it. */
  scheduleIds: ReadonlyMap<string, string>;
  /** OnCall escalation chain id → id of the policy created from it. */
  policyIds: ReadonlyMap<string, string>;
  /** Source integration id → id of the integration created with its key. */
  integrationIds: ReadonlyMap<string, string>;
  /** E-mail → setup token in clear, for the answer. */
  setupTokens: ReadonlyMap<string, string>;
}

/** A dry run creates nothing: only references to existing users have ids. */
export function idsOfExisting(userIds: ReadonlyMap<string, string>): ImportIds {
  return {
    userIds,
    scheduleIds: new Map(),
    policyIds: new Map(),
    integrationIds: new Map(),
    setupTokens: new Map(),
  };
}

export async function writePlan(
  tx: Queryable,
  plan: ImportPlan,
  existingUserIds: ReadonlyMap<string, string>,
  now: Date,
): Promise<ImportIds> {
  const userIds = new Map(existingUserIds);
  // A password nobody is told: the account is entered through its setup token.
  const hashes = await hashGeneratedPasswords(plan.users.length);
  const created: Array<{ id: string; email: string }> = [];
  for (const [index, user] of plan.users.entries()) {
    const row = await users.insertUser(tx, {
      email: user.email,
      name: user.name,
      role: user.role,
      slackUserId: user.slackUserId,
      authSource: 'local',
      passwordHash: hashes[index]!,
    });
    userIds.set(user.email, row.id);
    created.push({ id: row.id, email: user.email });
  }
  const setupTokens = await issueSetupTokens(tx, created, now);
  const idOf = (person: PlannedPerson) => (person.email ? (userIds.get(person.email) ?? null) : null);

  const scheduleIds = new Map<string, string>();
  for (const schedule of plan.schedules) {
    const layers = await toNewLayers(
      tx,
      schedule.layers.map((layer) => layerInput(layer, idOf)),
      schedule.timezone,
    );
    const row = await schedules.insertSchedule(tx, {
      name: schedule.name,
      timezone: schedule.timezone,
      at: now,
    });
    await schedules.replaceLayers(tx, row.id, layers);
    // Keyed by the source's shift id: the same override imported again is not added twice. Where they
    // overlap, overrides apply in creation order (docs/schedules.md#overrides): each is made a
    // millisecond after the one before, so the source's order decides, not the ids' random order.
    for (const [index, override] of (schedule.overrides ?? []).entries()) {
      const userId = idOf(override.person);
      if (!userId) continue;
      await scheduleOverrides.insertOverride(tx, {
        scheduleId: row.id,
        userId,
        replacesUserId: null,
        startsAt: override.startsAt,
        endsAt: override.endsAt,
        createdBy: null,
        at: new Date(now.getTime() + index),
        externalId: `oncall:${override.sourceId}`,
      });
    }
    scheduleIds.set(schedule.sourceId, row.id);
  }

  const policyIds = new Map<string, string>();
  for (const policy of plan.escalationPolicies) {
    const tiers = await toNewTiers(
      tx,
      policy.tiers.map((tier) => tierInput(tier, idOf, scheduleIds)),
    );
    const row = await escalationPolicies.insertPolicy(tx, {
      name: policy.name,
      description: policy.description,
      enabled: policy.enabled,
      repeat: policy.repeat ?? 0,
      at: now,
    });
    await escalationPolicies.replaceTiers(tx, row.id, tiers);
    policyIds.set(policy.sourceId, row.id);
  }

  // With the source's key, so senders change only the host. A key taken meanwhile fails the insert on
  // the unique index and with it the whole import (409), rather than creating a second record.
  const integrationIds = new Map<string, string>();
  for (const keyed of plan.keyedIntegrations) {
    const policySourceId = keyed.escalationPolicySourceId;
    const row = await integrations.insertIntegration(
      tx,
      {
        name: keyed.name,
        type: keyed.type,
        enabled: keyed.enabled,
        key: keyed.key,
        escalationPolicyId: policySourceId ? (policyIds.get(policySourceId) ?? null) : null,
        labels: {},
        heartbeat: null,
      },
      now,
    );
    integrationIds.set(keyed.sourceId, row.id);
  }
  return { userIds, scheduleIds, policyIds, integrationIds, setupTokens };
}

type IdOf = (person: PlannedPerson) => string | null;

/** As a client would send it; the start as an instant, so no zone reinterprets it. */
function layerInput(layer: PlannedLayer, idOf: IdOf): LayerInput {
  return {
    name: layer.name,
    order_index: layer.orderIndex,
    rotation_start: layer.rotationStart.toISOString(),
    shift_duration_seconds: layer.shiftDurationSeconds,
    rotation_type: layer.rotationType,
    // A null id keeps the name without an account (an OnCall id that resolved to nobody).
    participants: layer.participants.map((person) => ({ user_id: idOf(person), name: person.name })),
  };
}

function tierInput(tier: PlannedTier, idOf: IdOf, scheduleIds: ReadonlyMap<string, string>): TierInput {
  if (tier.targetType === 'schedule') {
    return {
      target_type: 'schedule',
      schedule_id: scheduleIds.get(tier.schedule!.sourceId)!,
      timeout_seconds: tier.timeoutSeconds,
    };
  }
  return {
    target_type: 'users',
    user_ids: tier.users.map(idOf),
    user_names: tier.users.map((person) => person.name),
    timeout_seconds: tier.timeoutSeconds,
  };
}
