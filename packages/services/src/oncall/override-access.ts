import { AppError } from '@firebreak/schema';
import type { Principal } from '../auth/principal';

/**
 * Who may change overrides (docs/api.md#overrides): admins any; a member only one that puts themselves
 * on call ("take this shift"), and only deleting one they created. Viewers none (their role stops them
 * before this).
 */
export function assertMayCreateOverride(principal: Principal, userId: string): void {
  if (principal.role === 'admin') return;
  if (principal.user?.id === userId) return;
  throw new AppError('forbidden', 'Members may only create overrides that put themselves on call.');
}

export function assertMayDeleteOverride(principal: Principal, createdBy: string | null): void {
  if (principal.role === 'admin') return;
  if (principal.user && principal.user.id === createdBy) return;
  throw new AppError('forbidden', 'Members may only delete overrides they created.');
}
