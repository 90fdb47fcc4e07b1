import type { PagerDutyReference, PagerDutyUserItem, Role } from '@firebreak/schema';
import type { ExistingRecords, Findings, PlannedPerson, PlannedUser } from '../oncall-import/types';

/**
 * PagerDuty users (docs/import-pagerduty.md#what-is-imported-and-how): e-mail lowercased and required,
 * roles mapped, existing users never overwritten. Also builds the directory through which layers and
 * escalation rules turn PagerDuty user ids into people.
 */

// PagerDuty's REST API role names (the web UI's "Global Admin", "Responder", "Stakeholder"… are these).
const roles: Record<string, Role> = {
  owner: 'admin',
  account_owner: 'admin',
  admin: 'admin',
  user: 'member',
  limited_user: 'member',
  manager: 'member',
  responder: 'member',
  observer: 'viewer',
  read_only_user: 'viewer',
  read_only_limited_user: 'viewer',
  restricted_access: 'viewer',
};

/** Owners and admins → admin, responders (`user`, `limited_user`) → member, everyone else → viewer. */
export function mapPagerDutyRole(role: string | null | undefined): Role {
  // Unknown roles get the least access: an import must never hand out more than PagerDuty did.
  return roles[(role ?? '').trim().toLowerCase()] ?? 'viewer';
}

export function pagerDutyUserName(user: PagerDutyUserItem): string {
  return user.name?.trim() || user.email?.trim().split('@')[0] || user.id;
}

const emailShape = /^[^\s@]+@[^\s@]+$/;

/** PagerDuty user id → the person it means here. */
export interface Directory {
  people: ReadonlyMap<string, PlannedPerson>;
  /** Ids that PagerDuty answered 404 for (deleted users still named by a layer or rule). */
  deleted: ReadonlySet<string>;
}

export interface UserPlan extends Findings {
  users: PlannedUser[];
  directory: Directory;
}

export function planPagerDutyUsers(
  source: readonly PagerDutyUserItem[],
  deletedIds: readonly string[],
  existing: Pick<ExistingRecords, 'users'>,
): UserPlan {
  const known = new Map(existing.users.map((user) => [user.email.toLowerCase(), user.name]));
  const people = new Map<string, PlannedPerson>();
  const plan: UserPlan = {
    users: [],
    directory: { people, deleted: new Set(deletedIds) },
    conflicts: [],
    warnings: [],
  };
  for (const user of source) {
    const name = pagerDutyUserName(user);
    const email = user.email?.trim().toLowerCase() || null;
    const skip = (reason: string) => plan.conflicts.push({ kind: 'user', name, reason, email });
    if (user.deleted_at) {
      // Listed only by some accounts' API versions; such a user can no longer be paged there either.
      skip(`deleted in PagerDuty on ${user.deleted_at}`);
      continue;
    }
    if (email === null || !emailShape.test(email)) {
      skip(email === null ? 'no e-mail address' : `"${email}" is not an e-mail address`);
      continue;
    }
    const holder = known.get(email);
    if (holder !== undefined) {
      people.set(user.id, { email, name: holder });
      skip(
        plan.users.some((u) => u.email === email)
          ? `same e-mail as "${holder}", imported earlier in this run`
          : 'a user with this e-mail already exists',
      );
      continue;
    }
    known.set(email, name);
    people.set(user.id, { email, name });
    plan.users.push({ sourceId: user.id, email, name, role: mapPagerDutyRole(user.role), slackUserId: null });
  }
  return plan;
}

/**
 * A user reference of a layer or rule: the imported (or existing) user, else a name without an account —
 * the reference's `summary` (PagerDuty keeps a deleted user's name there), else the id — and a note.
 */
export function resolveUser(
  reference: PagerDutyReference,
  directory: Directory,
): { person: PlannedPerson; note?: string } {
  const person = directory.people.get(reference.id);
  if (person) return { person };
  const name = reference.summary?.trim() || reference.id;
  const why =
    directory.deleted.has(reference.id) || reference.deleted_at
      ? 'was deleted in PagerDuty'
      : 'is not an imported user';
  return {
    person: { email: null, name },
    note: `${name} (${reference.id}) ${why}; kept as a name without an account`,
  };
}
