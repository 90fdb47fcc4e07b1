import { alertsOrThrow, type ParseResult, type WebhookIntegrationId } from '@firebreak/domain';
import { isJsonContentType, mediaTypeOf, parseJson, readBodyText } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import { type IntakeResult, type IntakeSource, recordAlerts, type ServiceContext } from '@firebreak/services';
import type { Context, MiddlewareHandler } from 'hono';

/**
 * While the database is known to be down (the failure log probes it every second), alerts are answered
 * 500 `database_unavailable` at once (docs/api.md#errors) instead of each waiting on a connection
 * attempt: under a sender's retries those waits would fill the intake gate and turn the answer into 503
 * overload.
 */
export function failFastWhileDatabaseDown(ctx: Pick<ServiceContext, 'failures'>): MiddlewareHandler {
  return async (_c, next) => {
    if (ctx.failures.failing('database') !== undefined) {
      throw new AppError('database_unavailable', 'The database is unavailable. Try again shortly.');
    }
    await next();
  };
}

/**
 * Requests beyond this many in flight are answered 503 at once: overload answers 503, which every
 * sender retries; never 429, which Alertmanager and Grafana drop
 * (docs/integrations/alert-webhooks.md#answers).
 */
export class IntakeGate {
  private inFlight = 0;

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.limit) {
      throw new AppError('service_unavailable', 'Too many alert requests at once; retry shortly.', {
        retry_after_seconds: 1,
      });
    }
    this.inFlight += 1;
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
    }
  }
}

/**
 * The raw body (signatures are computed over it), or 415 when it is not declared as JSON. The type is
 * compared exactly (docs/api.md#requests); `alsoAccept` names further exact media types, such as the
 * `text/plain` that SNS sends.
 */
export async function rawJsonBody(c: Context, alsoAccept: readonly string[] = []): Promise<string> {
  const header = c.req.header('content-type');
  if (!isJsonContentType(header) && !alsoAccept.includes(mediaTypeOf(header))) {
    throw new AppError(
      'unsupported_media_type',
      'Send the body as JSON with Content-Type: application/json.',
    );
  }
  return readBodyText(c);
}

/** Parse (pure, per source), then store and route in one transaction. */
export async function ingest(
  ctx: ServiceContext,
  integration: WebhookIntegrationId | IntakeSource,
  raw: string,
  parse: (payload: unknown, now: Date) => ParseResult,
): Promise<IntakeResult> {
  // One instant for the whole request: defaults like `started_at` = "time of receipt"
  // (docs/integrations/alert-webhooks.md#generic).
  const receivedAt = ctx.now();
  const alerts = alertsOrThrow(parse(parseJson(raw), receivedAt));
  return recordAlerts(ctx, integration, alerts, receivedAt);
}
