import { users } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import type { Principal } from '../auth/principal';
import type { ServiceContext } from '../context';

/** The person a `/users/{id}/…` paging request is about: `me`, or an id. */
export interface PagingOwner {
  id: string;
  name: string;
  slack_user_id: string | null;
  teams_user_id?: string | null;
}

/**
 * Whose contact methods and rules a request may read and change (docs/api.md#personal-paging):
 * everyone their own, admins anyone's. Another person's id is 404 to a non-admin, as an unknown one is,
 * so the answer does not say which ids exist.
 */
export async function resolvePagingOwner(
  ctx: ServiceContext,
  principal: Principal,
  id: string,
): Promise<PagingOwner> {
  const self = principal.user?.id;
  const wanted = id === 'me' ? self : id.toLowerCase();
  if (!wanted) throw new AppError('forbidden', 'This API key belongs to nobody; use a user id.');
  if (wanted !== self && principal.role !== 'admin') throw noSuchUser(id);
  const row = await users.findUserById(ctx.sql, wanted);
  if (!row) throw noSuchUser(id);
  return { id: row.id, name: row.name, slack_user_id: row.slack_user_id, teams_user_id: row.teams_user_id };
}

const noSuchUser = (id: string) => new AppError('not_found', `No user "${id}".`);
