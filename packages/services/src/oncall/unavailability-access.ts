import { AppError } from '@firebreak/schema';
import type { Principal } from '../auth/principal';

/**
 * Who may mark and unmark unavailability (docs/api.md#unavailability), as for overrides: admins for
 * anyone; a member only for themselves ("I am away"), and only their own ranges, whoever entered them.
 * Viewers none (their role stops them before this).
 */
export function assertMayWriteUnavailability(principal: Principal, userId: string): void {
  if (principal.role === 'admin') return;
  if (principal.user?.id === userId) return;
  throw new AppError('forbidden', 'Members may only mark themselves unavailable, and remove only their own.');
}
