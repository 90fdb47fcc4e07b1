import { contactMethods } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { pagingKey } from './link-key';
import { deriveVerificationCode } from './verification-code';

/**
 * For `notify.send_code`: the contact method and its code, derived again from the nonce the job carries.
 * Undefined when the code was replaced by a newer one (the job of the newer one sends that), used, or
 * has expired: nothing to send.
 */
export async function readVerificationToSend(
  ctx: ServiceContext,
  contactMethodId: string,
  nonce: string,
): Promise<{ contact: contactMethods.ContactMethodRow; code: string } | undefined> {
  const contact = await contactMethods.findContactMethod(ctx.sql, contactMethodId);
  if (!contact || contact.code_nonce !== nonce || !contact.code_expires_at) return undefined;
  if (contact.code_expires_at <= ctx.now()) return undefined;
  return { contact, code: deriveVerificationCode(await pagingKey(ctx.sql), contact.id, nonce) };
}

/** For `notify.test`: the contact method, if it still exists and is usable. */
export async function readContactToTest(
  ctx: ServiceContext,
  contactMethodId: string,
): Promise<contactMethods.ContactMethodRow | undefined> {
  const contact = await contactMethods.findContactMethod(ctx.sql, contactMethodId);
  return contact?.verified_at && !contact.disabled_at ? contact : undefined;
}
