import type { SenderEvent } from '@firebreak/domain';
import { parseJson, readBodyText } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import {
  acknowledgeSenderAlert,
  findKeyedIntegration,
  type KeyedIntegration,
  recordAlerts,
  resolveSenderAlert,
  type ServiceContext,
} from '@firebreak/services';
import type { Context } from 'hono';

/**
 * Shared by the PagerDuty and Opsgenie alert APIs (docs/integrations/pagerduty-opsgenie-apis.md): the
 * integration a key names, the body, and carrying out one event.
 */

/** The enabled integration of `type` that `key` names; undefined for any other key, alike. */
export async function senderIntegration(
  ctx: ServiceContext,
  key: string,
  type: 'pagerduty' | 'opsgenie',
): Promise<KeyedIntegration | undefined> {
  const integration = await findKeyedIntegration(ctx, key).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  });
  return integration?.type === type ? integration : undefined;
}

/**
 * The body as JSON, whatever its declared type: these senders' own clients set
 * `application/json`, but a hand-written `curl -d` says form-encoded, and the originals accept it.
 * `undefined` for an empty body; `invalid` for text that is not JSON (or nested too deep).
 */
export async function senderBody(c: Context): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const raw = await readBodyText(c);
  if (raw.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: parseJson(raw) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false };
    throw error;
  }
}

/** Records, resolves or acknowledges, as the event says (the caller runs it within the intake gate). */
export async function applySenderEvent(
  ctx: ServiceContext,
  integration: KeyedIntegration,
  event: SenderEvent,
  receivedAt: Date,
): Promise<void> {
  switch (event.action) {
    case 'trigger':
      await recordAlerts(ctx, integration.source, [event.alert], receivedAt);
      return;
    case 'resolve':
      await resolveSenderAlert(ctx, integration, event.ref);
      return;
    case 'acknowledge':
      await acknowledgeSenderAlert(ctx, integration, event.ref);
      return;
  }
}
