import type { TeamsConfig } from '@firebreak/config';
import { errorCodeOf, retryAfterSeconds, TeamsApiError } from './api-error';

export const BOT_FRAMEWORK_SCOPE = 'https://api.botframework.com/.default';
export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
export type MicrosoftScope = typeof BOT_FRAMEWORK_SCOPE | typeof GRAPH_SCOPE;

// A token is used until this long before it expires, so a call never goes out with one about to lapse.
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;
const TOKEN_TIMEOUT_MS = 10_000;

interface CachedToken {
  value: string;
  expiresAt: number;
}

/**
 * The bot's access tokens (client credentials grant of the Microsoft identity platform, against the
 * configured tenant), one per scope: the Bot Connector's and Graph's. Each is kept until shortly
 * before it expires and shared by every call; concurrent calls wait for one request. A refused or
 * failed token request is not retried here: it throws a `TeamsApiError` of the `login` service, and
 * the chat job's own retries (and the shared rate-limit pauses, for a 429) take it from there.
 */
export class TeamsTokenClient {
  private readonly cache = new Map<MicrosoftScope, CachedToken>();
  private readonly pending = new Map<MicrosoftScope, Promise<string>>();

  constructor(
    private readonly config: Pick<TeamsConfig, 'appId' | 'appPassword' | 'tenantId' | 'loginUrl'>,
    private readonly now: () => number = Date.now,
  ) {}

  async token(scope: MicrosoftScope): Promise<string> {
    const cached = this.cache.get(scope);
    if (cached && cached.expiresAt - EXPIRY_MARGIN_MS > this.now()) return cached.value;
    let pending = this.pending.get(scope);
    if (!pending) {
      pending = this.request(scope).finally(() => this.pending.delete(scope));
      this.pending.set(scope, pending);
    }
    return pending;
  }

  /** Tokens are asked for again (the services refused one: a rotated secret, a revoked app). */
  forget(scope: MicrosoftScope): void {
    this.cache.delete(scope);
  }

  private async request(scope: MicrosoftScope): Promise<string> {
    const url = `${this.config.loginUrl.replace(/\/+$/, '')}/${encodeURIComponent(this.config.tenantId)}/oauth2/v2.0/token`;
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.config.appId,
      client_secret: this.config.appPassword,
      scope,
    });
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
      });
    } catch {
      throw new TeamsApiError('login', 0, 'network_error');
    }
    const body = (await response.json().catch(() => null)) as {
      access_token?: unknown;
      expires_in?: unknown;
    } | null;
    if (!response.ok) {
      const retryAfter =
        response.status === 429 ? retryAfterSeconds(response.headers.get('retry-after')) : undefined;
      throw new TeamsApiError('login', response.status, errorCodeOf(response.status, body), retryAfter);
    }
    const value = body?.access_token;
    const lifetimeS = Number(body?.expires_in);
    if (typeof value !== 'string' || !Number.isFinite(lifetimeS)) {
      throw new TeamsApiError('login', response.status, 'no_token_in_answer');
    }
    this.cache.set(scope, { value, expiresAt: this.now() + lifetimeS * 1000 });
    return value;
  }
}
