import type { Role } from '@firebreak/schema';

export interface OidcRoleRules {
  /** The role of someone in none of the mapped groups; `none` refuses them. */
  defaultRole: Role | 'none';
  /** The claim that lists the person's groups; undefined: every new user gets `defaultRole`. */
  groupsClaim: string | undefined;
  groups: Record<Role, readonly string[]>;
}

// Highest first: someone in both the admin and the viewer group is an admin.
const ROLES_BY_RANK: readonly Role[] = ['admin', 'member', 'viewer'];

/**
 * The role the provider's claims give: the highest role one of whose groups the person is in, else the
 * default role. `none` means "may not sign in". The claim may be a list or a single string (providers
 * differ); anything else counts as no groups.
 */
export function roleFromClaims(claims: Record<string, unknown>, rules: OidcRoleRules): Role | 'none' {
  if (rules.groupsClaim === undefined) return rules.defaultRole;
  const value = claims[rules.groupsClaim];
  const groups = new Set(
    (Array.isArray(value) ? value : [value]).filter((group): group is string => typeof group === 'string'),
  );
  return (
    ROLES_BY_RANK.find((role) => rules.groups[role].some((group) => groups.has(group))) ?? rules.defaultRole
  );
}
