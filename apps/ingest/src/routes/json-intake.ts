import { type ParseResult, type WebhookIntegrationId, webhookParsers } from '@firebreak/domain';
import type { AppEnv } from '@firebreak/http';
import type { IntakeSource, ServiceContext } from '@firebreak/services';
import type { Context } from 'hono';
import { type IntakeGate, ingest, rawJsonBody } from '../intake';

/** The JSON senders, by the parser that reads them: the same at the fixed path and at a keyed URL. */
export const jsonParsers = {
  generic: webhookParsers.generic,
  alertmanager: webhookParsers.alertmanager,
  grafana: webhookParsers.grafana,
} satisfies Record<string, (payload: unknown, now: Date) => ParseResult>;

export type JsonSenderType = keyof typeof jsonParsers;

/**
 * One JSON alert request, for the fixed paths and keyed intake alike: the raw body (415 unless JSON),
 * the fixed path's own check of it (its secret or token; keyed intake has none, the key being the
 * credential), then parse, store and route within the intake gate.
 */
export async function receiveJson(
  c: Context<AppEnv>,
  ctx: ServiceContext,
  gate: IntakeGate,
  from: WebhookIntegrationId | IntakeSource,
  sender: JsonSenderType,
  authenticate?: (raw: string) => Promise<void>,
): Promise<Response> {
  const raw = await rawJsonBody(c);
  await authenticate?.(raw);
  return c.json(await gate.run(() => ingest(ctx, from, raw, jsonParsers[sender])));
}
