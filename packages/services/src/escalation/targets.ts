import { type escalationPolicies, type escalations, type Queryable, users } from '@firebreak/db';
import { finalOnCallPerson } from '../oncall/final-shifts';

export interface EscalationTarget {
  id: string | null;
  name: string;
  slack_user_id: string | null;
  /** Their Teams id (docs/teams.md#people): pages go to each chat platform the person is on. */
  teams_user_id?: string | null;
}

/**
 * Who a tier pages at `at`: its named users, or whoever is on call in its schedule then. Reads through
 * the caller's transaction: asking the pool for a second connection while holding the escalation's
 * row lock would starve it when many escalations fire at once.
 */
export async function resolveTargets(
  sql: Queryable,
  tier: escalationPolicies.TierRecord,
  at: Date,
): Promise<EscalationTarget[]> {
  const people =
    tier.target_type === 'schedule' && tier.schedule_id
      ? await onCallPeople(sql, tier.schedule_id, at)
      : tier.users;
  const ids = people.map((p) => p.user_id).filter((id): id is string => id !== null);
  const contacts = new Map((await users.findUserContacts(sql, ids)).map((row) => [row.id, row]));
  return people.map((p) => {
    const user = p.user_id ? contacts.get(p.user_id) : undefined;
    return {
      id: user?.id ?? null,
      name: user?.name ?? p.name,
      slack_user_id: user?.slack_user_id ?? null,
      ...teamsIdOf(user),
    };
  });
}

/** Overrides applied: whoever covers the shift is paged, not the person they cover. */
async function onCallPeople(sql: Queryable, scheduleId: string, at: Date) {
  const person = (await finalOnCallPerson(sql, scheduleId, at))?.person;
  return person ? [person] : [];
}

/**
 * `resolveTargets` for a tier read with its people's current contacts (`escalations.findFiringPolicies`,
 * the reconciler's read): a users tier needs no further query, a schedule tier asks who is on call.
 */
export async function firingTargets(
  sql: Queryable,
  tier: escalations.FiringTier,
  at: Date,
): Promise<EscalationTarget[]> {
  if (tier.target_type === 'schedule') return resolveTargets(sql, { position: 0, ...tier, users: [] }, at);
  return tier.users.map((u) => ({
    id: u.user_id,
    name: u.name,
    slack_user_id: u.slack_user_id,
    ...teamsIdOf(u),
  }));
}

/** A step names a Teams id only for people who have one (docs/teams.md#people): steps stay as they were. */
function teamsIdOf(person: { teams_user_id?: string | null } | undefined) {
  return person?.teams_user_id ? { teams_user_id: person.teams_user_id } : {};
}
