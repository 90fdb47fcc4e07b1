import { type OnCallUserItem, type Role, SLACK_USER_ID_PATTERN } from '@firebreak/schema';
import type { ExistingRecords, Findings, PlannedPerson, PlannedUser } from './types';

/**
 * Users (docs/import-oncall.md#what-is-imported-and-how): e-mail lowercased and required, name falling back
 * to the login, roles mapped, existing users never overwritten. Also builds the directory through which
 * shifts and escalation steps turn OnCall user ids into people.
 */

const roles: Record<string, Role> = { admin: 'admin', user: 'member', editor: 'member', viewer: 'viewer' };

/** `admin`→admin, `user` and `editor`→member, anything else (`viewer`, `none`, `observer`)→viewer. */
export function mapRole(role: string | null | undefined): Role {
  return roles[(role ?? '').trim().toLowerCase()] ?? 'viewer';
}

/** `name`, else `username` (the real API sends no name); else the e-mail's local part, else the id. */
export function userName(user: OnCallUserItem): string {
  const email = user.email?.trim() ?? '';
  return user.name?.trim() || user.username?.trim() || email.split('@')[0] || user.id;
}

// The shape the users API accepts (CreateUserInput), so an imported user can be edited like any other.
const emailShape = /^[^\s@]+@[^\s@]+$/;

/** OnCall user id → the person it means here. Ids it lacks are unresolved. */
export type People = ReadonlyMap<string, PlannedPerson>;

export interface UserPlan extends Findings {
  users: PlannedUser[];
  people: People;
}

export function planUsers(source: readonly OnCallUserItem[], existing: ExistingRecords): UserPlan {
  const known = new Map(existing.users.map((user) => [user.email.toLowerCase(), user.name]));
  const slackTaken = new Set(existing.users.flatMap((user) => user.slack_user_id ?? []));
  const plan: UserPlan & { people: Map<string, PlannedPerson> } = {
    users: [],
    people: new Map(),
    conflicts: [],
    warnings: [],
  };
  for (const user of source) {
    const name = userName(user);
    const email = user.email?.trim().toLowerCase() || null;
    const skip = (reason: string) =>
      plan.conflicts.push({ kind: 'user', name, reason, email, username: user.username ?? null });
    if (email === null) {
      skip('no e-mail address');
      continue;
    }
    if (!emailShape.test(email)) {
      skip(`"${email}" is not an e-mail address`);
      continue;
    }
    const holder = known.get(email);
    if (holder !== undefined) {
      // Another OnCall user with this e-mail, or a user of ours: either way references mean that user.
      plan.people.set(user.id, { email, name: holder });
      skip(
        plan.users.some((u) => u.email === email)
          ? `same e-mail as "${holder}", imported earlier in this run`
          : 'a user with this e-mail already exists',
      );
      continue;
    }
    let slackUserId = user.slack?.user_id?.trim() || null;
    if (slackUserId !== null && !SLACK_USER_ID_PATTERN.test(slackUserId)) {
      plan.warnings.push({
        kind: 'user',
        name,
        message: `slack_user_id ${JSON.stringify(slackUserId.slice(0, 64))} is not a chat user id; imported without it`,
      });
      slackUserId = null;
    }
    if (slackUserId !== null && slackTaken.has(slackUserId)) {
      plan.warnings.push({
        kind: 'user',
        name,
        message: `slack_user_id ${slackUserId} already belongs to another user; imported without it`,
      });
      slackUserId = null;
    }
    if (slackUserId !== null) slackTaken.add(slackUserId);
    known.set(email, name);
    plan.people.set(user.id, { email, name });
    plan.users.push({ sourceId: user.id, email, name, role: mapRole(user.role), slackUserId });
  }
  return plan;
}
