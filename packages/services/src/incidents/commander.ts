import { type Queryable, users } from '@firebreak/db';
import { AppError } from '@firebreak/schema';

/** The commander must be an active user; else the request names nobody who can lead. */
export async function requireCommander(sql: Queryable, userId: string): Promise<users.UserRow> {
  const user = await users.findUserById(sql, userId);
  if (!user?.active) {
    throw new AppError('validation_failed', 'The request is not valid.', [
      { path: 'commander_id', message: 'no active user has this id' },
    ]);
  }
  return user;
}

export function personOf(user: users.UserRow): { id: string; name: string; email: string } {
  return { id: user.id, name: user.name, email: user.email };
}
