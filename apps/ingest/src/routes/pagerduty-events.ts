import { randomBytes } from 'node:crypto';
import { type PagerDutyParse, parsePagerDutyEventV1, parsePagerDutyEventV2 } from '@firebreak/domain';
import type { AppEnv, HttpApp } from '@firebreak/http';
import type { Context } from 'hono';
import type { IngestDeps } from '../deps';
import type { IntakeGate } from '../intake';
import { applySenderEvent, senderBody, senderIntegration } from './sender-events';

export const PAGERDUTY_V2_PATH = '/v2/enqueue';
export const PAGERDUTY_V1_PATH = '/generic/2010-04-15/create_event.json';

const versions = {
  v2: { parse: parsePagerDutyEventV2, keyField: 'routing_key', dedupField: 'dedup_key', status: 202 },
  v1: { parse: parsePagerDutyEventV1, keyField: 'service_key', dedupField: 'incident_key', status: 200 },
} as const;

/**
 * PagerDuty's Events API, v2 and v1, at PagerDuty's own paths (docs/integrations/pagerduty-opsgenie-apis.md):
 * `routing_key` (v1: `service_key`) is the key of an enabled `pagerduty` integration. Answers in
 * PagerDuty's shapes: 202 (v1: 200) `{status: "success", message: "Event processed", dedup_key}`, and 400
 * `{status: "invalid event", message, errors: [...]}` for a bad event or key. Overload and a database
 * outage answer as every intake path does (503, 500), which PagerDuty's senders retry.
 */
export function addPagerDutyEventRoutes(app: HttpApp, deps: IngestDeps, gate: IntakeGate): void {
  app.post(PAGERDUTY_V2_PATH, (c) => receive(c, deps, gate, 'v2'));
  app.post(PAGERDUTY_V1_PATH, (c) => receive(c, deps, gate, 'v1'));
}

async function receive(
  c: Context<AppEnv>,
  deps: IngestDeps,
  gate: IntakeGate,
  version: keyof typeof versions,
): Promise<Response> {
  const { ctx } = deps;
  const { parse, keyField, dedupField, status } = versions[version];
  const receivedAt = ctx.now();
  const body = await senderBody(c);
  if (!body.ok) {
    // PagerDuty's own answer to a body that is not JSON.
    return c.json(
      {
        status: 'Unrecognized object',
        message: 'Event object format is unrecognized',
        errors: ['JSON parse error'],
      },
      400,
    );
  }
  const parsed: PagerDutyParse = parse(body.value, receivedAt, newDedupKey());
  if (!parsed.ok) return invalidEvent(c, 'Event object is invalid', parsed.errors);
  const integration = await senderIntegration(ctx, parsed.routingKey, 'pagerduty');
  if (!integration) {
    // Names the problem, never the key: an answer can end up in a sender's logs and in proxies.
    return invalidEvent(c, `Invalid ${keyField}`, [
      `${keyField} does not name an enabled PagerDuty integration.`,
    ]);
  }
  await gate.run(() => applySenderEvent(ctx, integration, parsed.event, receivedAt));
  return c.json({ status: 'success', message: 'Event processed', [dedupField]: parsed.dedupKey }, status);
}

/** PagerDuty's own key shape: 32 hex characters, random (PagerDuty's are random too). */
function newDedupKey(): string {
  return randomBytes(16).toString('hex');
}

function invalidEvent(c: Context<AppEnv>, message: string, errors: string[]): Response {
  return c.json({ status: 'invalid event', message, errors }, 400);
}
