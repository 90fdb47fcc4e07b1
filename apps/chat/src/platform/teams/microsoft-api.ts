import type { TeamsConfig } from '@firebreak/config';
import type { PauseScope } from '../../outbound/rate-limit-pauses';
import { errorCodeOf, type MicrosoftService, retryAfterSeconds, TeamsApiError } from './api-error';
import { BOT_FRAMEWORK_SCOPE, GRAPH_SCOPE, type MicrosoftScope, TeamsTokenClient } from './token-client';

const CALL_TIMEOUT_MS = 10_000;

/** Runs one call under its rate-limit pause scope (the worker's shared pauses; tests may run it bare). */
export type PauseGate = <T>(scope: PauseScope, call: () => Promise<T>) => Promise<T>;

const ungated: PauseGate = (_scope, call) => call();

/**
 * Microsoft Graph and the Bot Connector as the Teams platform calls them: JSON over HTTPS with the
 * bot's token for each, every call through the shared rate-limit pauses under its scope — Graph's
 * limits are per app and tenant, so one 429 pauses Graph; the Bot Connector's are per conversation
 * (Teams' "per bot per thread" limits), so a 429 pauses only that conversation. A failure is a
 * `TeamsApiError` (classified by errors.ts). Nothing is retried here: the chat job retries.
 */
export class MicrosoftApi {
  readonly tokens: TeamsTokenClient;
  private readonly graphBase: string;
  private readonly connectorBase: string;

  constructor(
    config: TeamsConfig,
    private readonly gate: PauseGate = ungated,
  ) {
    this.tokens = new TeamsTokenClient(config);
    this.graphBase = `${config.graphUrl.replace(/\/+$/, '')}/v1.0`;
    this.connectorBase = config.serviceUrl.replace(/\/+$/, '');
  }

  /** A Graph call (`path` after `/v1.0`); answers the parsed body, or undefined for 204. */
  graph<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.gate({ method: 'graph' }, () =>
      this.call<T>('graph', GRAPH_SCOPE, method, `${this.graphBase}${path}`, body),
    );
  }

  /** A Bot Connector call (`path` after the service URL), paused per conversation. */
  connector<T>(method: string, path: string, body: unknown, conversationId?: string): Promise<T> {
    const scope = conversationId
      ? { method: 'connector', channelId: conversationId }
      : { method: 'connector' };
    return this.gate(scope, () =>
      this.call<T>('connector', BOT_FRAMEWORK_SCOPE, method, `${this.connectorBase}${path}`, body),
    );
  }

  /**
   * A reply in the conversation an activity came from, at the `serviceUrl` it named (checked against
   * the Bot Connector's token before anything reaches here).
   */
  reply(serviceUrl: string, conversationId: string, activity: Record<string, unknown>): Promise<unknown> {
    const path = `/v3/conversations/${encodeURIComponent(conversationId)}/activities`;
    return this.call(
      'connector',
      BOT_FRAMEWORK_SCOPE,
      'POST',
      `${serviceUrl.replace(/\/+$/, '')}${path}`,
      activity,
    );
  }

  private async call<T>(
    service: MicrosoftService,
    scope: MicrosoftScope,
    method: string,
    url: string,
    body: unknown,
  ): Promise<T> {
    const token = await this.tokens.token(scope);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'error',
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch {
      throw new TeamsApiError(service, 0, 'network_error');
    }
    const text = await response.text().catch(() => '');
    const parsed = text ? safeJson(text) : undefined;
    if (response.ok) return parsed as T;
    // A token the service no longer takes (a rotated secret, a revoked consent) is asked for anew
    // on the next try.
    if (response.status === 401) this.tokens.forget(scope);
    const retryAfter =
      response.status === 429 ? retryAfterSeconds(response.headers.get('retry-after')) : undefined;
    throw new TeamsApiError(service, response.status, errorCodeOf(response.status, parsed), retryAfter);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
