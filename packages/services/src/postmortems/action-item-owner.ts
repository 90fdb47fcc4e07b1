import { type Queryable, users } from '@firebreak/db';
import { AppError } from '@firebreak/schema';

/** An owner must be a person who exists: a mistyped id would leave the item owned by nobody, silently. */
export async function requireOwner(sql: Queryable, ownerId: string | null | undefined): Promise<void> {
  if (!ownerId || (await users.findUserById(sql, ownerId))) return;
  throw new AppError('validation_failed', 'The request is not valid.', [
    { path: 'owner_id', message: 'no user has this id' },
  ]);
}
