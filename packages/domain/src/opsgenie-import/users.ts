import type { OpsgenieRecipient, OpsgenieUserItem, Role } from '@firebreak/schema';
import type { ExistingRecords, Findings, PlannedPerson, PlannedUser } from '../oncall-import/types';

/**
 * Opsgenie users (docs/import-opsgenie.md#what-is-imported-and-how): the e-mail is Opsgenie's `username`
 * (lowercased, required), the name its `fullName`, roles mapped, existing users never overwritten. Also
 * builds the directory through which rotations and escalation rules turn Opsgenie users into people.
 */

const roles: Record<string, Role> = {
  owner: 'admin',
  admin: 'admin',
  user: 'member',
  observer: 'viewer',
  stakeholder: 'viewer',
};

/**
 * `Owner`/`Admin` → admin, `User` → member, `Observer`/`Stakeholder` → viewer. A custom role is
 * `undefined`: the caller imports it as a viewer (the least it may be) and says so.
 */
export function mapOpsgenieRole(role: string | null | undefined): Role | undefined {
  return roles[(role ?? '').trim().toLowerCase()];
}

// The shape the users API accepts (CreateUserInput), so an imported user can be edited like any other.
const emailShape = /^[^\s@]+@[^\s@]+$/;

/** Opsgenie users by id and by lowercased username: rules and rotations name them either way. */
export interface People {
  byId: ReadonlyMap<string, PlannedPerson>;
  byUsername: ReadonlyMap<string, PlannedPerson>;
}

export interface OpsgenieUserPlan extends Findings {
  users: PlannedUser[];
  people: People;
}

export function opsgenieUserName(user: OpsgenieUserItem): string {
  return user.fullName?.trim() || user.username?.trim() || user.id;
}

export function planOpsgenieUsers(
  source: readonly OpsgenieUserItem[],
  existing: Pick<ExistingRecords, 'users'>,
): OpsgenieUserPlan {
  const known = new Map(existing.users.map((user) => [user.email.toLowerCase(), user.name]));
  const byId = new Map<string, PlannedPerson>();
  const byUsername = new Map<string, PlannedPerson>();
  const plan: OpsgenieUserPlan = { users: [], people: { byId, byUsername }, conflicts: [], warnings: [] };
  const link = (user: OpsgenieUserItem, person: PlannedPerson) => {
    byId.set(user.id, person);
    if (person.email) byUsername.set(person.email, person);
  };
  for (const user of source) {
    const name = opsgenieUserName(user);
    const email = user.username?.trim().toLowerCase() || null;
    const skip = (reason: string) =>
      plan.conflicts.push({ kind: 'user', name, reason, email, username: user.username ?? null });
    if (email === null) {
      skip('no username (e-mail address)');
      continue;
    }
    if (!emailShape.test(email)) {
      skip(`"${email}" is not an e-mail address`);
      continue;
    }
    const holder = known.get(email);
    if (holder !== undefined) {
      // Another Opsgenie user with this e-mail, or a user of ours: references mean that user either way.
      link(user, { email, name: holder });
      skip(
        plan.users.some((u) => u.email === email)
          ? `same e-mail as "${holder}", imported earlier in this run`
          : 'a user with this e-mail already exists',
      );
      continue;
    }
    const roleName = user.role?.name?.trim() || null;
    let role = mapOpsgenieRole(roleName);
    if (role === undefined) {
      role = 'viewer';
      plan.warnings.push({
        kind: 'user',
        name,
        message: `custom role "${roleName ?? 'none'}" imported as viewer; raise it if they need more`,
      });
    }
    if (user.blocked) {
      // Blocking is about logging in, which the admin decides here; the user still takes part in rotations.
      plan.warnings.push({
        kind: 'user',
        name,
        message: 'blocked in Opsgenie; imported active: deactivate them here if they should not log in',
      });
    }
    known.set(email, name);
    link(user, { email, name });
    plan.users.push({ sourceId: user.id, email, name, role, slackUserId: null });
  }
  return plan;
}

/**
 * The person a rotation participant or a rule's recipient of type `user` means. One Opsgenie no longer
 * lists (deleted), or that was skipped for its e-mail, stays as a name without an account: `unresolved`
 * says so, for the caller's warning.
 */
export function resolveUser(
  recipient: OpsgenieRecipient,
  people: People,
): { person: PlannedPerson; unresolved: boolean } {
  const person =
    (recipient.id ? people.byId.get(recipient.id) : undefined) ??
    (recipient.username ? people.byUsername.get(recipient.username.trim().toLowerCase()) : undefined);
  if (person) return { person, unresolved: false };
  const name = recipient.username?.trim() || recipient.name?.trim() || recipient.id || 'unknown user';
  return { person: { email: null, name }, unresolved: true };
}
