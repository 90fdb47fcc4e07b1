// Single sign-on (migration 0013, docs/sso.md): sign-ins in progress, and the link between a provider
// account and a user.
import type { Role } from '@firebreak/schema';
import type { Queryable } from './client';
import { settingKeys } from './settings';
import type { UserRow } from './users';

export interface SignInRow {
  nonce: string;
  code_verifier: string;
}

export async function insertSignIn(
  sql: Queryable,
  signIn: { stateHash: Buffer; nonce: string; codeVerifier: string; expiresAt: Date; now: Date },
): Promise<void> {
  // Housekeeping on the way in: abandoned sign-ins are few and small, so no timer is needed for them.
  await sql`delete from oidc_sign_ins where expires_at <= ${signIn.now}`;
  await sql`
    insert into oidc_sign_ins (state_hash, nonce, code_verifier, expires_at)
    values (${signIn.stateHash}, ${signIn.nonce}, ${signIn.codeVerifier}, ${signIn.expiresAt})`;
}

/** Deletes and returns the live sign-in of this state: a state is good for one callback only. */
export async function takeSignIn(
  sql: Queryable,
  stateHash: Buffer,
  now: Date,
): Promise<SignInRow | undefined> {
  const [row] = await sql<(SignInRow & { expires_at: Date })[]>`
    delete from oidc_sign_ins where state_hash = ${stateHash}
    returning nonce, code_verifier, expires_at`;
  if (!row || row.expires_at <= now) return undefined;
  return { nonce: row.nonce, code_verifier: row.code_verifier };
}

export async function findUserByIdentity(
  sql: Queryable,
  issuer: string,
  subject: string,
): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    select u.* from oidc_identities i join users u on u.id = i.user_id
    where i.issuer = ${issuer} and i.subject = ${subject}`;
  return row;
}

/** The provider account linked to this user, if any. */
export async function findIdentityOfUser(
  sql: Queryable,
  userId: string,
): Promise<{ issuer: string; subject: string } | undefined> {
  const [row] = await sql<{ issuer: string; subject: string }[]>`
    select issuer, subject from oidc_identities where user_id = ${userId}`;
  return row;
}

/** False when the user or the account is already linked (a concurrent first sign-in won). */
export async function linkIdentity(
  sql: Queryable,
  link: { issuer: string; subject: string; userId: string },
): Promise<boolean> {
  const result = await sql`
    insert into oidc_identities (issuer, subject, user_id)
    values (${link.issuer}, ${link.subject}, ${link.userId})
    on conflict do nothing`;
  return result.count > 0;
}

/** A user made by a first SSO sign-in: no password. Undefined when the e-mail is taken meanwhile. */
export async function insertSsoUser(
  sql: Queryable,
  user: { email: string; name: string; role: Role },
): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    insert into users (email, name, role, auth_source, password_hash)
    values (${user.email}, ${user.name}, ${user.role}, 'oidc', null)
    on conflict do nothing
    returning *`;
  return row;
}

export async function setRole(sql: Queryable, userId: string, role: Role): Promise<void> {
  await sql`update users set role = ${role}, updated_at = now() where id = ${userId} and role <> ${role}`;
}

/**
 * The break-glass admin (docs/sso.md#break-glass-admin): the user whose id the first start recorded in
 * the `break_glass_user_id` setting, in the transaction that created it. Installations from before that
 * setting record theirs at the first check: the oldest active admin then, once and for good. Undefined
 * when that user no longer exists: deleting the break-glass admin must not hand password login to the
 * next admin in line.
 */
export async function findBreakGlassUser(sql: Queryable): Promise<UserRow | undefined> {
  await sql`
    insert into settings (key, value)
    select ${settingKeys.breakGlassUserId}, to_jsonb(id::text) from users
    where role = 'admin' and active
    order by created_at, id limit 1
    on conflict (key) do nothing`;
  const [row] = await sql<UserRow[]>`
    select u.* from settings s join users u on u.id::text = s.value #>> '{}'
    where s.key = ${settingKeys.breakGlassUserId}`;
  return row;
}
