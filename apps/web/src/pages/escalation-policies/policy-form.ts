import type { CreateEscalationPolicyInput, EscalationPolicy, TargetType, User } from '@firebreak/schema';
import { rowKey } from '../../lib/list-edit';

/**
 * The escalation policy editor's fields and the request they make. A tier pages either named people
 * or whoever a schedule has on call; its timeout is typed in minutes, the unit people think of for
 * "page the next tier if nobody acknowledged". People without an account (kept from an import) stay
 * as they were: their names are sent paired with a null id.
 */

export interface TierUser {
  key: string;
  userId: string | null;
  name: string;
}

export interface TierForm {
  key: string;
  targetType: TargetType;
  users: TierUser[];
  scheduleId: string;
  timeoutMinutes: string;
}

export interface PolicyForm {
  name: string;
  description: string;
  enabled: boolean;
  repeat: string;
  tiers: TierForm[];
}

const MAX_TIMEOUT_SECONDS = 7 * 86_400;
export const MAX_REPEAT = 10;

export function emptyTier(): TierForm {
  return { key: rowKey(), targetType: 'users', users: [], scheduleId: '', timeoutMinutes: '5' };
}

export function emptyPolicyForm(): PolicyForm {
  return { name: '', description: '', enabled: true, repeat: '0', tiers: [emptyTier()] };
}

export function formOfPolicy(policy: EscalationPolicy): PolicyForm {
  return {
    name: policy.name,
    description: policy.description,
    enabled: policy.enabled,
    repeat: String(policy.repeat),
    tiers: policy.tiers.map((tier) => ({
      key: rowKey(),
      targetType: tier.target_type,
      users: tier.user_names.map((name, i) => ({ key: rowKey(), userId: tier.user_ids[i] ?? null, name })),
      scheduleId: tier.schedule_id ?? '',
      timeoutMinutes: String(tier.timeout_seconds / 60),
    })),
  };
}

export function tierUserOf(user: Pick<User, 'id' | 'name'>): TierUser {
  return { key: rowKey(), userId: user.id, name: user.name };
}

export function policyInputOf(form: PolicyForm): { input: CreateEscalationPolicyInput } | { error: string } {
  const name = form.name.trim();
  if (!name) return { error: 'Give the policy a name.' };
  const repeat = Number(form.repeat);
  if (!form.repeat.trim() || !Number.isInteger(repeat) || repeat < 0 || repeat > MAX_REPEAT) {
    return { error: `Repeat must be a whole number from 0 to ${MAX_REPEAT}.` };
  }
  const tiers: CreateEscalationPolicyInput['tiers'] = [];
  for (const [index, tier] of form.tiers.entries()) {
    const which = `Tier ${index + 1}`;
    const minutes = Number(tier.timeoutMinutes);
    const seconds = Math.round(minutes * 60);
    if (!tier.timeoutMinutes.trim() || !Number.isFinite(minutes) || seconds < 1) {
      return { error: `${which}: give the timeout in minutes.` };
    }
    if (seconds > MAX_TIMEOUT_SECONDS) return { error: `${which}: the timeout can be at most 7 days.` };
    if (tier.targetType === 'schedule') {
      if (!tier.scheduleId) return { error: `${which}: choose the schedule to page.` };
      tiers.push({ target_type: 'schedule', schedule_id: tier.scheduleId, timeout_seconds: seconds });
      continue;
    }
    if (tier.users.length === 0) return { error: `${which}: add at least one person to page.` };
    tiers.push({
      target_type: 'users',
      user_ids: tier.users.map((u) => u.userId),
      user_names: tier.users.map((u) => u.name),
      timeout_seconds: seconds,
    });
  }
  return { input: { name, description: form.description.trim(), enabled: form.enabled, repeat, tiers } };
}
