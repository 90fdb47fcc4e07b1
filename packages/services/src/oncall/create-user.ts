import { users } from '@firebreak/db';
import type { CreateUserInput, User } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import { hashPassword } from '../auth/passwords';
import { presentUser } from '../auth/present';
import type { ServiceContext } from '../context';
import { userConflicts } from './user-conflicts';
import { refusingConflicts } from './write-errors';

/**
 * `POST /api/v1/users` (admin). Without a password the user cannot log in until one is set, which suits
 * people who are only paged; the password is hashed here and never stored or logged in clear.
 */
export async function createUser(
  ctx: ServiceContext,
  input: CreateUserInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<User> {
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const write = ctx.sql.begin(async (tx) => {
    const inserted = await users.insertUser(tx, {
      email: input.email,
      name: input.name,
      role: input.role,
      slackUserId: input.slack_user_id ?? null,
      teamsUserId: input.teams_user_id ?? null,
      passwordHash,
    });
    await recordAudit(tx, ctx, {
      origin,
      entity: 'user',
      entityId: inserted.id,
      action: 'create',
      before: null,
      after: presentUser(inserted),
    });
    return inserted;
  });
  const row = await refusingConflicts(write, userConflicts(input));
  ctx.logger.info({ user_id: row.id, role: row.role }, 'user created');
  return presentUser(row);
}
