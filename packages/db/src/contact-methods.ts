import type { Queryable } from './client';

export type ContactMethodType = 'email' | 'sms' | 'voice' | 'push' | 'telegram';

export interface ContactMethodRow {
  id: string;
  user_id: string;
  type: ContactMethodType;
  address: string;
  push_keys: { p256dh: string; auth: string } | null;
  label: string | null;
  verified_at: Date | null;
  code_digest: string | null;
  code_nonce: string | null;
  code_expires_at: Date | null;
  code_attempts: number;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function listContactMethods(sql: Queryable, userId: string): Promise<ContactMethodRow[]> {
  return sql<ContactMethodRow[]>`
    select * from contact_methods where user_id = ${userId} order by created_at, id`;
}

export async function findContactMethod(sql: Queryable, id: string): Promise<ContactMethodRow | undefined> {
  const [row] = await sql<ContactMethodRow[]>`select * from contact_methods where id = ${id}`;
  return row;
}

/** Locks one contact method (a verification try counts its attempts under this lock). */
export async function lockContactMethod(sql: Queryable, id: string): Promise<ContactMethodRow | undefined> {
  const [row] = await sql<ContactMethodRow[]>`select * from contact_methods where id = ${id} for update`;
  return row;
}

/** Inserts a contact method; undefined when the person already has this address for this type. */
export async function insertContactMethod(
  sql: Queryable,
  input: {
    userId: string;
    type: ContactMethodType;
    address: string;
    pushKeys: { p256dh: string; auth: string } | null;
    label: string | null;
    verifiedAt: Date | null;
    at: Date;
  },
): Promise<ContactMethodRow | undefined> {
  const [row] = await sql<ContactMethodRow[]>`
    insert into contact_methods (user_id, type, address, push_keys, label, verified_at, created_at, updated_at)
    values (${input.userId}, ${input.type}, ${input.address},
            ${input.pushKeys ? sql.json(input.pushKeys) : null}, ${input.label}, ${input.verifiedAt},
            ${input.at}, ${input.at})
    on conflict (user_id, type, address) do nothing
    returning *`;
  return row;
}

/** Locks every push contact method with this endpoint, whoever's (a browser has one subscription). */
export async function lockPushMethodsAt(sql: Queryable, endpoint: string): Promise<ContactMethodRow[]> {
  return sql<ContactMethodRow[]>`
    select * from contact_methods where type = 'push' and address = ${endpoint}
    order by id for update`;
}

export async function deleteContactMethod(sql: Queryable, id: string): Promise<boolean> {
  const result = await sql`delete from contact_methods where id = ${id}`;
  return result.count > 0;
}

/** A fresh code: its digest, the nonce it was derived from, its expiry, and the wrong tries so far. */
export async function setVerificationCode(
  sql: Queryable,
  id: string,
  code: { digest: string; nonce: string; expiresAt: Date; attempts: number; at: Date },
): Promise<void> {
  await sql`
    update contact_methods set code_digest = ${code.digest}, code_nonce = ${code.nonce},
      code_expires_at = ${code.expiresAt}, code_attempts = ${code.attempts}, updated_at = ${code.at}
    where id = ${id}`;
}

/**
 * Holds a person's verification-code sends until the transaction ends, so two requests at once cannot
 * both pass the hourly cap.
 */
export async function lockCodeSendsOf(sql: Queryable, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`verification-code-sends:${userId}`}))`;
}

/** The codes sent to a person since `since`, newest first. */
export async function listCodeSendsSince(
  sql: Queryable,
  userId: string,
  since: Date,
): Promise<{ contact_method_id: string; sent_at: Date }[]> {
  return sql<{ contact_method_id: string; sent_at: Date }[]>`
    select contact_method_id, sent_at from verification_code_sends
    where user_id = ${userId} and sent_at > ${since}
    order by sent_at desc`;
}

/** Records one code sent, and forgets this person's sends older than `forgetBefore`. */
export async function recordCodeSend(
  sql: Queryable,
  send: { userId: string; contactMethodId: string; at: Date; forgetBefore: Date },
): Promise<void> {
  await sql`delete from verification_code_sends where user_id = ${send.userId} and sent_at <= ${send.forgetBefore}`;
  await sql`
    insert into verification_code_sends (user_id, contact_method_id, sent_at)
    values (${send.userId}, ${send.contactMethodId}, ${send.at})`;
}

export async function countCodeAttempt(sql: Queryable, id: string): Promise<void> {
  await sql`update contact_methods set code_attempts = code_attempts + 1 where id = ${id}`;
}

/** Verified: the code is spent, and an address that was disabled is usable again. */
export async function markVerified(sql: Queryable, id: string, at: Date): Promise<void> {
  await sql`
    update contact_methods set verified_at = ${at}, code_digest = null, code_nonce = null,
      code_expires_at = null, code_attempts = 0, disabled_at = null, disabled_reason = null,
      updated_at = ${at}
    where id = ${id}`;
}

export async function disableContactMethod(
  sql: Queryable,
  id: string,
  reason: string,
  at: Date,
): Promise<void> {
  await sql`
    update contact_methods set disabled_at = ${at}, disabled_reason = ${reason}, updated_at = ${at}
    where id = ${id} and disabled_at is null`;
}

/** The verified, usable contact methods of these people (the ones a page can go to). */
export async function listUsableContactMethods(
  sql: Queryable,
  userIds: readonly string[],
): Promise<ContactMethodRow[]> {
  if (userIds.length === 0) return [];
  return sql<ContactMethodRow[]>`
    select * from contact_methods
    where user_id = any(${userIds as string[]}::uuid[]) and verified_at is not null and disabled_at is null
    order by created_at, id`;
}

/**
 * The verified sms contact methods with this number (an SMS reply names only its sender's number), of
 * people still active: a deactivated person's number acknowledges nothing.
 */
export async function findVerifiedSmsByNumber(sql: Queryable, number: string): Promise<ContactMethodRow[]> {
  return sql<ContactMethodRow[]>`
    select m.* from contact_methods m join users u on u.id = m.user_id
    where m.type = 'sms' and m.address = ${number} and m.verified_at is not null and u.active
    order by m.created_at, m.id`;
}
