import { randomBytes, randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { listen, type RunningServer } from './http-server';
import { type FakeMicrosoftRequest, FakeThrottle } from './teams-throttle';

/**
 * A fake Microsoft identity platform token endpoint (`POST /{tenant}/oauth2/v2.0/token`) for the
 * client credentials grant, from Microsoft's "Microsoft identity platform and the OAuth 2.0 client
 * credentials flow" and the Bot Framework's "Authentication with the Bot Connector API" (a bot asks
 * for `https://api.botframework.com/.default`; Graph calls need `https://graph.microsoft.com/.default`).
 * It refuses what the real one refuses, with the same AADSTS error bodies: a wrong secret (401
 * `invalid_client`, AADSTS7000215), an unknown app (400 `unauthorized_client`, AADSTS700016), an
 * unknown tenant (400 `invalid_request`, AADSTS90002), a missing or foreign scope (400 `invalid_scope`,
 * AADSTS1002012), another grant (400 `unsupported_grant_type`, AADSTS70003); and it throttles with 429
 * and `Retry-After`. Issued tokens are opaque and remembered with their scope, so the Bot Connector
 * and Graph fakes can check them.
 */

export const BOT_FRAMEWORK_SCOPE = 'https://api.botframework.com/.default';
export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
const SCOPES = new Set([BOT_FRAMEWORK_SCOPE, GRAPH_SCOPE]);
/** The tenant multi-tenant bots ask Bot Framework tokens of. */
const BOT_FRAMEWORK_TENANT = 'botframework.com';
const LIFETIME_S = 3599;

export interface FakeTeamsTokenEndpointOptions {
  appId: string;
  appPassword: string;
  tenantId: string;
  /** Token requests per second before 429 (default 20). */
  requestsPerSecond?: number;
}

interface Issued {
  scope: string;
  expiresAt: number;
}

export class FakeTeamsTokenEndpoint {
  readonly requests: FakeMicrosoftRequest[] = [];
  readonly throttle: FakeThrottle;
  private readonly issued = new Map<string, Issued>();
  private server!: RunningServer;

  constructor(readonly options: FakeTeamsTokenEndpointOptions) {
    this.throttle = new FakeThrottle([{ requests: options.requestsPerSecond ?? 20, windowMs: 1000 }]);
  }

  get origin(): string {
    return this.server.origin;
  }

  /** The token URL for a tenant (the configured one by default). */
  tokenUrl(tenant = this.options.tenantId): string {
    return `${this.origin}/${tenant}/oauth2/v2.0/token`;
  }

  /** Whether `token` was issued for `scope` and has not expired (or been revoked). */
  isValid(token: string | undefined, scope: string): boolean {
    const issued = token ? this.issued.get(token) : undefined;
    return issued !== undefined && issued.scope === scope && issued.expiresAt > Date.now();
  }

  /** Tokens stop working at once (an expiry, a rotated secret). */
  revokeAll(): void {
    this.issued.clear();
  }

  async start(): Promise<this> {
    const app = new Hono();
    app.post('/:tenant/oauth2/v2.0/token', async (c) => {
      const form = new URLSearchParams(await c.req.text());
      const record = (status: number, code?: string) =>
        this.requests.push({
          method: 'POST',
          path: c.req.path,
          status,
          body: { ...Object.fromEntries(form), client_secret: form.has('client_secret') ? '***' : undefined },
          ...(code ? { code } : {}),
        });
      const retryAfter = this.throttle.check('token');
      if (retryAfter !== undefined) {
        record(429, 'throttled');
        return c.json(
          aadError('temporarily_unavailable', 50196, 'The server temporarily throttled the request.'),
          429,
          {
            'Retry-After': String(retryAfter),
          },
        );
      }
      const refusal = this.refusal(c.req.param('tenant'), form);
      if (refusal) {
        record(refusal.status, refusal.body.error);
        return c.json(refusal.body, refusal.status);
      }
      const token = randomBytes(24).toString('base64url');
      const scope = form.get('scope')!;
      this.issued.set(token, { scope, expiresAt: Date.now() + LIFETIME_S * 1000 });
      record(200);
      return c.json({
        token_type: 'Bearer',
        expires_in: LIFETIME_S,
        ext_expires_in: LIFETIME_S,
        access_token: token,
      });
    });
    this.server = await listen((request) => app.fetch(request));
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private refusal(tenant: string, form: URLSearchParams): { status: 400 | 401; body: AadError } | undefined {
    const { appId, appPassword, tenantId } = this.options;
    if (tenant !== tenantId && tenant !== BOT_FRAMEWORK_TENANT) {
      return {
        status: 400,
        body: aadError(
          'invalid_request',
          90002,
          `Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
        ),
      };
    }
    if (form.get('grant_type') !== 'client_credentials') {
      return {
        status: 400,
        body: aadError('unsupported_grant_type', 70003, 'The app requested an unsupported grant type.'),
      };
    }
    if (form.get('client_id') !== appId) {
      return {
        status: 400,
        body: aadError(
          'unauthorized_client',
          700016,
          `Application with identifier '${form.get('client_id') ?? ''}' was not found in the directory '${tenant}'.`,
        ),
      };
    }
    if (form.get('client_secret') !== appPassword) {
      return {
        status: 401,
        body: aadError(
          'invalid_client',
          7000215,
          'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
        ),
      };
    }
    const scope = form.get('scope');
    if (!scope || !SCOPES.has(scope)) {
      return {
        status: 400,
        body: aadError('invalid_scope', 1002012, `The provided value for scope ${scope ?? ''} is not valid.`),
      };
    }
    return undefined;
  }
}

interface AadError {
  error: string;
  error_description: string;
  error_codes: number[];
  timestamp: string;
  trace_id: string;
  correlation_id: string;
}

/** The identity platform's error body: `error_description` starts with the AADSTS code. */
function aadError(error: string, code: number, description: string): AadError {
  const traceId = randomUUID();
  const timestamp = new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
  return {
    error,
    error_description: `AADSTS${code}: ${description} Trace ID: ${traceId} Correlation ID: ${randomUUID()} Timestamp: ${timestamp}`,
    error_codes: [code],
    timestamp,
    trace_id: traceId,
    correlation_id: randomUUID(),
  };
}

export async function startFakeTeamsTokenEndpoint(
  options: FakeTeamsTokenEndpointOptions,
): Promise<FakeTeamsTokenEndpoint> {
  return new FakeTeamsTokenEndpoint(options).start();
}
