import type { Role } from '@firebreak/schema';

// admin (everything) > member (incidents, alerts, notes; reads configuration) > viewer (reads).
const rank: Record<Role, number> = { viewer: 0, member: 1, admin: 2 };

/** Whether someone holding `role` may do what needs at least `needed`. */
export function roleAllows(role: Role, needed: Role): boolean {
  return rank[role] >= rank[needed];
}
