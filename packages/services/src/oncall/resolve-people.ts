import { type Queryable, userAdmin } from '@firebreak/db';
import { AppError, type ValidationIssue } from '@firebreak/schema';

/**
 * Schedules and escalation tiers name people by user id or by display name (docs/api.md#on-call). This
 * turns each reference into the user it means, or into a validation issue at the reference's path
 * (`layers[0].participants[2]`), all issues of a request at once.
 */

export interface PersonReference {
  /** Where the reference is in the request, for the error. */
  path: string;
  /** A user id; null keeps `name` without an account; undefined looks `name` up. */
  userId?: string | null | undefined;
  name?: string | undefined;
}

export interface Person {
  userId: string | null;
  name: string;
}

export async function resolvePeople(
  sql: Queryable,
  references: PersonReference[],
): Promise<{ people: Person[]; issues: ValidationIssue[] }> {
  const ids = [...new Set(references.flatMap((ref) => (ref.userId ? [ref.userId] : [])))];
  const names = [
    ...new Set(references.flatMap((ref) => (ref.userId === undefined && ref.name ? [ref.name] : []))),
  ];
  const byId = new Map((await userAdmin.findUsersByIds(sql, ids)).map((user) => [user.id, user]));
  const byName = new Map<string, userAdmin.UserRef[]>();
  for (const user of await userAdmin.findUsersByNames(sql, names)) {
    byName.set(user.wanted, [...(byName.get(user.wanted) ?? []), user]);
  }
  const issues: ValidationIssue[] = [];
  const people = references.map((ref): Person => {
    if (ref.userId === null) return { userId: null, name: ref.name ?? '' };
    const matches = ref.userId
      ? [byId.get(ref.userId)].filter((u) => u !== undefined)
      : (byName.get(ref.name ?? '') ?? []);
    if (matches.length === 1) return { userId: matches[0]!.id, name: matches[0]!.name };
    issues.push({
      path: ref.path,
      message: ref.userId
        ? 'no user has this id'
        : matches.length === 0
          ? `no user is named "${ref.name}"`
          : `${matches.length} users are named "${ref.name}"; give user_id instead`,
    });
    return { userId: null, name: ref.name ?? '' };
  });
  return { people, issues };
}

export function throwIfInvalid(issues: ValidationIssue[]): void {
  if (issues.length > 0) throw new AppError('validation_failed', 'The request is not valid.', issues);
}
