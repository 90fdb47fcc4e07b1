import { contactMethods, outbox } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import type { PagingOwner } from './access';
import { type ConfiguredMethods, requireConfigured } from './configured';
import { pagingKey } from './link-key';
import { ownedContactMethod } from './remove-contact-method';
import {
  CODE_COOLDOWN_MS,
  CODE_MAX_ATTEMPTS,
  CODE_SENDS_PER_HOUR,
  CODE_TTL_MS,
  CODE_WINDOW_MS,
  deriveVerificationCode,
  digestCode,
  newCodeNonce,
} from './verification-code';

/**
 * `POST …/contact-methods/{cm_id}/send-code`: a new 6-digit code, good for 10 minutes, sent by the
 * worker through the method itself (an e-mail, a text). A new code replaces the one before, but not its
 * wrong tries: 5 per contact method per hour, whatever the number of codes, or asking again would make
 * guessing free. One code a minute per contact method and 10 an hour per person, so the endpoint cannot
 * flood a number or an inbox (429 with the time to come back).
 */
export async function sendVerificationCode(
  ctx: ServiceContext,
  owner: PagingOwner,
  contactMethodId: string,
  configured: ConfiguredMethods,
): Promise<{ status: 'queued' | 'verified' }> {
  const key = await pagingKey(ctx.sql);
  return ctx.sql.begin(async (tx) => {
    const row = await ownedContactMethod(tx, owner, contactMethodId, true);
    if (row.type === 'push') return { status: 'verified' as const };
    requireConfigured(configured, row.type);
    if (row.verified_at && !row.disabled_at) {
      throw new AppError('conflict', 'This contact method is verified already.');
    }
    const now = ctx.now();
    await contactMethods.lockCodeSendsOf(tx, owner.id);
    const sends = await contactMethods.listCodeSendsSince(
      tx,
      owner.id,
      new Date(now.getTime() - CODE_WINDOW_MS),
    );
    const last = sends.find((s) => s.contact_method_id === row.id);
    if (last && now.getTime() - last.sent_at.getTime() < CODE_COOLDOWN_MS) {
      tooSoon(now, last.sent_at.getTime() + CODE_COOLDOWN_MS, 'A code was sent here less than a minute ago');
    }
    if (sends.length >= CODE_SENDS_PER_HOUR) {
      const oldest = sends[sends.length - 1]!.sent_at.getTime();
      tooSoon(now, oldest + CODE_WINDOW_MS, `${CODE_SENDS_PER_HOUR} codes were sent to you in the last hour`);
    }
    // The wrong tries of the hour's earlier codes still count.
    const attempts = last ? row.code_attempts : 0;
    if (last && attempts >= CODE_MAX_ATTEMPTS) {
      tooSoon(now, last.sent_at.getTime() + CODE_WINDOW_MS, 'Too many wrong codes for this contact method');
    }
    await contactMethods.recordCodeSend(tx, {
      userId: owner.id,
      contactMethodId: row.id,
      at: now,
      forgetBefore: new Date(now.getTime() - CODE_WINDOW_MS),
    });
    const nonce = newCodeNonce();
    const code = deriveVerificationCode(key, row.id, nonce);
    await contactMethods.setVerificationCode(tx, row.id, {
      digest: digestCode(row.id, code),
      nonce,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      attempts,
      at: now,
    });
    await outbox.insertOutboxRows(tx, [
      { name: 'notify.send_code', payload: { contact_method_id: row.id, nonce } },
    ]);
    return { status: 'queued' as const };
  });
}

/** 429 with the time to come back; nothing was sent or stored. */
function tooSoon(now: Date, untilMs: number, why: string): never {
  const seconds = Math.max(1, Math.ceil((untilMs - now.getTime()) / 1000));
  const at = new Date(now.getTime() + seconds * 1000).toISOString();
  throw new AppError('rate_limited', `${why}; ask for a new code after ${at} (in ${seconds} s).`, {
    retry_after_seconds: seconds,
    retry_at: at,
  });
}
