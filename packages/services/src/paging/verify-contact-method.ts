import { contactMethods } from '@firebreak/db';
import { AppError, type ContactMethod } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import type { PagingOwner } from './access';
import { presentContactMethod } from './present';
import { ownedContactMethod } from './remove-contact-method';
import { CODE_MAX_ATTEMPTS, codeMatches } from './verification-code';

/**
 * `POST …/contact-methods/{cm_id}/verify {code}`. Each wrong try counts, under the row's lock, so five
 * tries means five whatever the concurrency; after the fifth, or after 10 minutes, only a new code
 * helps. A wrong code is 400 and says how many tries are left.
 */
export async function verifyContactMethod(
  ctx: ServiceContext,
  owner: PagingOwner,
  contactMethodId: string,
  code: string,
  origin: ChangeOrigin,
): Promise<ContactMethod> {
  const outcome = await ctx.sql.begin(async (tx) => {
    const row = await ownedContactMethod(tx, owner, contactMethodId, true);
    const now = ctx.now();
    if (!row.code_digest || !row.code_expires_at) return refuse('No code was sent; ask for one first.');
    if (row.code_expires_at <= now) return refuse('The code has expired; ask for a new one.');
    if (row.code_attempts >= CODE_MAX_ATTEMPTS) return refuse('Too many wrong codes; ask for a new one.');
    if (!codeMatches(row.code_digest, row.id, code)) {
      await contactMethods.countCodeAttempt(tx, row.id);
      const left = CODE_MAX_ATTEMPTS - row.code_attempts - 1;
      return refuse(left > 0 ? `Wrong code; ${left} tries left.` : 'Wrong code; ask for a new one.');
    }
    await contactMethods.markVerified(tx, row.id, now);
    const after = { ...row, verified_at: now, disabled_at: null, disabled_reason: null };
    await recordAudit(tx, ctx, {
      origin,
      entity: 'contact_method',
      entityId: row.id,
      action: 'update',
      before: { user_id: owner.id, ...presentContactMethod(row) },
      after: { user_id: owner.id, ...presentContactMethod(after) },
    });
    return { ok: presentContactMethod(after) };
  });
  // The wrong try is counted by the committed transaction; only then is the request refused.
  if ('refused' in outcome) {
    throw new AppError('validation_failed', outcome.refused, [{ path: 'code', message: outcome.refused }]);
  }
  return outcome.ok;
}

const refuse = (message: string) => ({ refused: message }) as const;
