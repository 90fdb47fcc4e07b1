import type { escalationPolicies, schedules } from '@firebreak/db';
import type { EscalationPolicy, Schedule } from '@firebreak/schema';

export function presentSchedule(record: schedules.ScheduleRecord): Schedule {
  return {
    id: record.id,
    name: record.name,
    timezone: record.timezone,
    layers: record.layers.map((layer) => ({
      name: layer.name,
      order_index: layer.order_index,
      rotation_start: layer.rotation_start.toISOString(),
      shift_duration_seconds: layer.shift_duration_seconds,
      rotation_type: layer.rotation_type,
      participants: layer.participants.map(({ user_id, name }) => ({ user_id, name })),
    })),
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}

export function presentEscalationPolicy(record: escalationPolicies.EscalationPolicyRecord): EscalationPolicy {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    enabled: record.enabled,
    repeat: record.repeat,
    tiers: record.tiers.map((tier) => ({
      target_type: tier.target_type,
      user_ids: tier.users.map((user) => user.user_id),
      user_names: tier.users.map((user) => user.name),
      schedule_id: tier.schedule_id,
      timeout_seconds: tier.timeout_seconds,
    })),
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}
