import { oidc, sessions, users } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { type LoginResult, SESSION_TTL_MS } from './login';
import { isRefusal, OidcClient, type OidcClientSettings } from './oidc-client';
import { type OidcRoleRules, roleFromClaims } from './oidc-roles';
import { presentUser } from './present';
import { generateToken, hashToken } from './tokens';

export type OidcSettings = OidcClientSettings & OidcRoleRules;

/** Long enough to type a password and answer a second factor at the provider; short for a stolen state. */
export const SIGN_IN_TTL_MS = 10 * 60 * 1000;

/** Users the provider creates or regroups are changed by nobody through the API: the audit log says `sso`. */
const ssoOrigin: ChangeOrigin = { actor: { type: 'system', name: 'sso' }, requestId: null };

const STALE_SIGN_IN = 'This sign-in is unknown, used or expired: start again.';

/**
 * Single sign-on with OpenID Connect (docs/sso.md): `begin` sends the browser to the provider, `finish`
 * takes it back, verifies who it is, finds or creates the user and opens a session the way password
 * login does. The state, nonce and PKCE verifier stay in the database, keyed by the state's digest; the
 * browser also carries the state in a cookie, so a callback only works in the browser that started it.
 */
export class OidcSignIn {
  private readonly client: OidcClient;

  constructor(private readonly settings: OidcSettings) {
    this.client = new OidcClient(settings);
  }

  async begin(ctx: ServiceContext): Promise<{ authorizationUrl: string; state: string }> {
    const now = ctx.now();
    let started: Awaited<ReturnType<OidcClient['authorizationUrl']>>;
    try {
      started = await this.client.authorizationUrl(now);
    } catch (error) {
      ctx.logger.warn({ err: describe(error), issuer: this.settings.issuerUrl }, 'sso provider unavailable');
      throw new AppError(
        'service_unavailable',
        'The identity provider cannot be reached or is misconfigured.',
      );
    }
    const { pending } = started;
    await oidc.insertSignIn(ctx.sql, {
      stateHash: hashToken(pending.state),
      nonce: pending.nonce,
      codeVerifier: pending.codeVerifier,
      expiresAt: new Date(now.getTime() + SIGN_IN_TTL_MS),
      now,
    });
    return { authorizationUrl: started.url, state: pending.state };
  }

  /**
   * `callbackUrl`: the registered redirect URL with the query the provider sent; `cookieState`: the
   * state cookie of the browser that came back. Every refusal is 401 `unauthorized` and is logged with
   * its reason; nothing is written before the identity is verified.
   */
  async finish(ctx: ServiceContext, callbackUrl: URL, cookieState: string | undefined): Promise<LoginResult> {
    const state = callbackUrl.searchParams.get('state') ?? '';
    if (!cookieState || cookieState !== state) {
      return refuse(
        ctx,
        'state does not match the browser',
        'This sign-in was started in another browser: start again.',
      );
    }
    const now = ctx.now();
    const signIn = await oidc.takeSignIn(ctx.sql, hashToken(state), now);
    if (!signIn) return refuse(ctx, 'unknown, used or expired state', STALE_SIGN_IN);

    let identity: Awaited<ReturnType<OidcClient['verify']>>;
    try {
      identity = await this.client.verify(
        callbackUrl,
        { state, nonce: signIn.nonce, codeVerifier: signIn.code_verifier },
        now,
      );
    } catch (error) {
      if (!isRefusal(error)) {
        ctx.logger.warn({ err: describe(error) }, 'sso provider unavailable');
        throw new AppError('service_unavailable', 'The identity provider cannot be reached: try again.');
      }
      return refuse(ctx, describe(error), 'The identity provider’s answer was refused: start again.');
    }
    return this.openSession(ctx, identity);
  }

  private async openSession(
    ctx: ServiceContext,
    identity: Awaited<ReturnType<OidcClient['verify']>>,
  ): Promise<LoginResult> {
    const { claims } = identity;
    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    // An unverified address could be anyone's, and the e-mail is what links a person to an existing user.
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    if (!email || !verified) {
      return refuse(ctx, 'no verified e-mail', 'The identity provider did not confirm an e-mail address.');
    }
    const role = roleFromClaims(claims, this.settings);

    // Nobody in a mapped group may use Firebreak, whoever they are in it: checked before any user is
    // found, linked or created, so a local or chat user with the same e-mail is refused as well.
    if (role === 'none') {
      return refuse(ctx, 'in no mapped group', 'You are in none of the groups allowed to use Firebreak.');
    }

    const user = await ctx.sql.begin(async (tx) => {
      let found = await oidc.findUserByIdentity(tx, identity.issuer, identity.subject);
      if (!found) {
        const byEmail = await users.findUserByEmail(tx, email);
        if (byEmail) {
          if (!byEmail.active) return byEmail;
          // Linked to another account of the provider: a second account with the same address (reused
          // or changed) must not take the user over.
          if (await oidc.findIdentityOfUser(tx, byEmail.id)) return 'linked_elsewhere' as const;
          // Whoever controls the address at the provider must not take over an account that has its
          // own credential: the break-glass admin never, others once an admin removed their password
          // (docs/sso.md#existing-users).
          if ((await oidc.findBreakGlassUser(tx))?.id === byEmail.id) return 'break_glass' as const;
          if (byEmail.password_hash) return 'has_password' as const;
          found = byEmail;
        } else {
          found = await oidc.insertSsoUser(tx, { email, name: displayName(claims, email), role });
          if (!found)
            throw new AppError('conflict', 'This user is being created by another sign-in: try again.');
          await recordAudit(tx, ctx, {
            origin: ssoOrigin,
            entity: 'user',
            entityId: found.id,
            action: 'create',
            before: null,
            after: presentUser(found),
          });
          ctx.logger.info({ user_id: found.id, role, auth_source: 'oidc' }, 'user created');
        }
        if (!(await oidc.linkIdentity(tx, { ...identity, userId: found.id }))) {
          throw new AppError('conflict', 'This account is being linked by another sign-in: try again.');
        }
      }
      if (!found.active) return found;
      // Groups are managed at the provider for users it created; other users keep the role given here.
      if (found.auth_source === 'oidc' && this.settings.groupsClaim !== undefined && found.role !== role) {
        await oidc.setRole(tx, found.id, role);
        const before = found;
        found = { ...found, role };
        await recordAudit(tx, ctx, {
          origin: ssoOrigin,
          entity: 'user',
          entityId: found.id,
          action: 'update',
          before: presentUser(before),
          after: presentUser(found),
        });
      }
      return found;
    });

    if (user === 'linked_elsewhere') {
      return refuse(
        ctx,
        'e-mail linked to another subject',
        'This e-mail belongs to a user linked to another SSO account.',
      );
    }
    if (user === 'break_glass') {
      return refuse(
        ctx,
        'e-mail of the break-glass admin',
        'This e-mail belongs to the break-glass admin, who signs in with a password only.',
      );
    }
    if (user === 'has_password') {
      return refuse(
        ctx,
        'e-mail of a user with a password',
        'This e-mail belongs to a Firebreak user with a password: ask an admin to remove the password, then sign in with SSO again.',
      );
    }
    if (!user.active) return refuse(ctx, 'user deactivated', 'This user is deactivated.');

    const token = generateToken('session');
    const now = ctx.now();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await sessions.insertSession(ctx.sql, {
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt,
      createdAt: now,
    });
    ctx.logger.info({ user_id: user.id, method: 'oidc' }, 'login');
    return { token, user: presentUser(user), expiresAt };
  }
}

function displayName(claims: Record<string, unknown>, email: string): string {
  const parts = [claims.given_name, claims.family_name].filter((part) => typeof part === 'string');
  for (const candidate of [claims.name, parts.join(' '), claims.preferred_username]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim().slice(0, 200);
  }
  return email;
}

function refuse(ctx: ServiceContext, reason: string, message: string): never {
  ctx.logger.warn({ reason }, 'sso sign-in refused');
  throw new AppError('unauthorized', message);
}

// Class, code and message of the error and its causes only: openid-client's errors can carry the
// response (and its tokens), which must not reach the log.
function describe(error: unknown): string {
  const parts: string[] = [];
  for (let at: unknown = error; at instanceof Error && parts.length < 4; at = at.cause) {
    const code = (at as { code?: unknown }).code;
    parts.push(`${at.name}${typeof code === 'string' ? ` ${code}` : ''}: ${at.message}`);
  }
  return parts.length > 0 ? parts.join(' <- ') : String(error);
}
