import { setupTokens, userAdmin } from '@firebreak/db';
import { AppError, type SetupPasswordInput, type User } from '@firebreak/schema';
import { recordAudit } from '../audit';
import { hashPassword } from '../auth/passwords';
import { presentUser } from '../auth/present';
import { hashToken } from '../auth/tokens';
import type { ServiceContext } from '../context';

/**
 * `POST /api/v1/auth/setup` (public, docs/api.md#authentication): an imported user trades their setup token
 * for a password of their own. The token is used up in the same transaction that sets the password, so it
 * works once; unknown, used and expired tokens get the same 401, which tells a guesser nothing.
 */
export async function setupPassword(ctx: ServiceContext, input: SetupPasswordInput): Promise<User> {
  // The token is checked before the password is hashed, so made-up tokens cost no scrypt (a flood
  // of them would otherwise take every hash slot from real logins). Answering a bad token sooner tells
  // a guesser nothing: 256 random bits cannot be guessed by timing. The claim below checks it again,
  // in the transaction, so a token used meanwhile still works only once.
  const tokenHash = hashToken(input.token);
  if (!(await setupTokens.isUsableSetupToken(ctx.sql, tokenHash, ctx.now()))) throw unknownToken();
  const passwordHash = await hashPassword(input.password);
  const row = await ctx.sql.begin(async (tx) => {
    const now = ctx.now();
    const claimed = await setupTokens.claimSetupToken(tx, tokenHash, now);
    const user = claimed ? await userAdmin.lockUser(tx, claimed.user_id) : undefined;
    // A deactivated user's token stays unused (the transaction rolls back), as their login would.
    if (!user?.active) throw unknownToken();
    await setupTokens.deleteSetupTokensOfUser(tx, user.id);
    await userAdmin.deleteSessionsOfUser(tx, user.id);
    const updated = (await userAdmin.updateUser(tx, user.id, { password_hash: passwordHash }, now))!;
    // The user acted, with their token as the credential. The password shows only as redacted.
    await recordAudit(tx, ctx, {
      origin: { actor: { type: 'user', id: user.id, name: user.name }, requestId: null },
      entity: 'user',
      entityId: user.id,
      action: 'update',
      before: presentUser(user),
      after: { ...presentUser(updated), password: passwordHash },
    });
    return updated;
  });
  ctx.logger.info({ user_id: row.id }, 'password set with a setup token');
  return presentUser(row);
}

function unknownToken(): AppError {
  return new AppError('unauthorized', 'This setup token is unknown, already used or expired.');
}
