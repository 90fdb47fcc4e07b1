import { AppError } from '@firebreak/schema';
import * as client from 'openid-client';

export interface OidcClientSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  /** `<PUBLIC_URL>/api/v1/auth/oidc/callback`, registered at the provider. */
  redirectUrl: string;
}

/** What a sign-in must remember between leaving for the provider and coming back. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  /** The ID token's claims, completed from the userinfo endpoint when they lacked the e-mail. */
  claims: Record<string, unknown>;
}

/**
 * The protocol half of single sign-on, on `openid-client`: the authorization URL with PKCE (S256), state
 * and nonce, and on the way back the checks of the response, the code exchange and the ID token
 * (signature, issuer, audience, expiry, nonce). Provider metadata is discovered once and kept; a failed
 * discovery is retried on the next sign-in.
 */
export class OidcClient {
  private metadata: Promise<client.ServerMetadata> | undefined;

  constructor(private readonly settings: OidcClientSettings) {}

  async authorizationUrl(now: Date): Promise<{ url: string; pending: PendingSignIn }> {
    const config = await this.configuration(now);
    const pending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUrl,
      scope: this.settings.scopes,
      response_type: 'code',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, pending };
  }

  /** `callbackUrl`: the redirect URL with the query the provider sent back. */
  async verify(callbackUrl: URL, pending: PendingSignIn, now: Date): Promise<VerifiedIdentity> {
    const config = await this.configuration(now);
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      pkceCodeVerifier: pending.codeVerifier,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new AppError('unauthorized', 'The identity provider sent no ID token.');
    let claims: Record<string, unknown> = { ...idToken };
    // Some providers put only `sub` in the ID token and the rest behind the userinfo endpoint.
    if (claims.email === undefined && config.serverMetadata().userinfo_endpoint) {
      const userInfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
      claims = { ...userInfo, ...claims };
    }
    return { issuer: config.serverMetadata().issuer, subject: idToken.sub, claims };
  }

  /**
   * A configuration on the service clock: the validation of `exp`, `iat` and `nbf` uses `now` (tests
   * move it; in production it is the wall clock, so the skew is zero).
   */
  private async configuration(now: Date): Promise<client.Configuration> {
    const metadata = await this.discover();
    const config = new client.Configuration(metadata, this.settings.clientId, {
      client_secret: this.settings.clientSecret,
      [client.clockSkew]: Math.round((now.getTime() - Date.now()) / 1000),
    });
    if (this.insecure()) client.allowInsecureRequests(config);
    return config;
  }

  private discover(): Promise<client.ServerMetadata> {
    if (!this.metadata) {
      const options = this.insecure() ? { execute: [client.allowInsecureRequests] } : undefined;
      this.metadata = client
        .discovery(new URL(this.settings.issuerUrl), this.settings.clientId, undefined, undefined, options)
        .then((config) => config.serverMetadata());
      this.metadata.catch(() => {
        this.metadata = undefined;
      });
    }
    return this.metadata;
  }

  // The configuration allows http:// only for a provider on this machine (packages/config).
  private insecure(): boolean {
    return new URL(this.settings.issuerUrl).protocol === 'http:';
  }
}

/**
 * Whether a failure is the provider's answer being refused (a check failed, the code was bad, the
 * person said no) rather than the provider being unreachable.
 */
export function isRefusal(error: unknown): boolean {
  if (error instanceof AppError) return true;
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError)
    return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('OAUTH_');
}
