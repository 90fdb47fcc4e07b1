import { randomUUID } from 'node:crypto';
import {
  opsgenieAlertRef,
  parseOpsgenieCreateAlert,
  parseOpsgenieTextUpdate,
  type SenderAlertRef,
} from '@firebreak/domain';
import type { AppEnv, HttpApp } from '@firebreak/http';
import { AddNoteInput, AppError, OpsgenieAlertAction } from '@firebreak/schema';
import { addSenderAlertNote, type KeyedIntegration, updateSenderAlertText } from '@firebreak/services';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { IngestDeps } from '../deps';
import type { IntakeGate } from '../intake';
import { applySenderEvent, senderBody, senderIntegration } from './sender-events';

export const OPSGENIE_ALERTS_PATH = '/v2/alerts';

type Action = 'close' | 'acknowledge' | 'notes';

/**
 * Opsgenie's Alert API at Opsgenie's own paths (docs/integrations/pagerduty-opsgenie-apis.md):
 * `Authorization: GenieKey <key>` names an enabled `opsgenie` integration. Create, close, acknowledge
 * and notes answer 202 `{result: "Request will be processed", took, requestId}` like the original;
 * errors are Opsgenie's `{message, took, requestId}`: 422 for a key that is not `GenieKey <key>` and for
 * a body that is not processable, 401 for a key that names no enabled Opsgenie integration, 400 for a
 * body that is not JSON. Overload and a database outage answer as every intake path does (503, 500).
 */
export function addOpsgenieAlertRoutes(app: HttpApp, deps: IngestDeps, gate: IntakeGate): void {
  app.post(OPSGENIE_ALERTS_PATH, (c) => create(c, deps, gate));
  for (const action of ['close', 'acknowledge', 'notes'] as const) {
    app.post(`${OPSGENIE_ALERTS_PATH}/:identifier/${action}`, (c) => act(c, deps, gate, action));
  }
  for (const field of ['message', 'description'] as const) {
    app.put(`${OPSGENIE_ALERTS_PATH}/:identifier/${field}`, (c) => updateText(c, deps, gate, field));
  }
}

async function create(c: Context<AppEnv>, deps: IngestDeps, gate: IntakeGate): Promise<Response> {
  const { ctx } = deps;
  const started = performance.now();
  const receivedAt = ctx.now();
  const integration = await authenticate(c, deps, started);
  if (integration instanceof Response) return integration;
  const body = await senderBody(c);
  if (!body.ok) return opsgenieError(c, started, 400, 'Invalid JSON body');
  const parsed = parseOpsgenieCreateAlert(body.value ?? null, receivedAt, randomUUID());
  if (!parsed.ok) {
    const message =
      'message' in parsed.errors
        ? 'Message can not be empty.'
        : 'Request body is not processable. Please check the errors.';
    return opsgenieError(c, started, 422, message, { errors: parsed.errors });
  }
  await gate.run(() =>
    applySenderEvent(ctx, integration, { action: 'trigger', alert: parsed.alert }, receivedAt),
  );
  return accepted(c, started);
}

async function act(
  c: Context<AppEnv>,
  deps: IngestDeps,
  gate: IntakeGate,
  action: Action,
): Promise<Response> {
  const { ctx } = deps;
  const started = performance.now();
  const integration = await authenticate(c, deps, started);
  if (integration instanceof Response) return integration;
  const target = opsgenieAlertRef(c.req.param('identifier') ?? '', c.req.query('identifierType'));
  if (!target.ok) return opsgenieError(c, started, 422, target.message);
  const body = await senderBody(c);
  if (!body.ok) return opsgenieError(c, started, 400, 'Invalid JSON body');
  const fields = OpsgenieAlertAction.safeParse(body.value ?? {});
  if (!fields.success) {
    return opsgenieError(c, started, 422, 'Request body is not processable. Please check the errors.');
  }
  const { ref } = target;
  if (action === 'notes') {
    const text = noteText(fields.data);
    if (!text)
      return opsgenieError(c, started, 422, 'Note can not be empty.', { errors: { note: 'Required.' } });
    if (!ref) return opsgenieError(c, started, 404, 'Alert does not exist');
    return addNote(c, deps, gate, integration, ref, text, started);
  }
  // An alert the sender never created is accepted and changes nothing, as Opsgenie (which answers
  // before it looks) and PagerDuty do: Alertmanager closes groups it may never have opened here.
  if (ref) {
    const event = { action: action === 'close' ? ('resolve' as const) : ('acknowledge' as const), ref };
    await gate.run(() => applySenderEvent(ctx, integration, event, ctx.now()));
  }
  return accepted(c, started);
}

/**
 * `PUT …/message` and `…/description` (Alertmanager's `update_alerts`): the alert's new title or
 * description. Like close, an alert the integration never created is accepted and changes nothing.
 */
async function updateText(
  c: Context<AppEnv>,
  deps: IngestDeps,
  gate: IntakeGate,
  field: 'message' | 'description',
): Promise<Response> {
  const started = performance.now();
  const integration = await authenticate(c, deps, started);
  if (integration instanceof Response) return integration;
  const target = opsgenieAlertRef(c.req.param('identifier') ?? '', c.req.query('identifierType'));
  if (!target.ok) return opsgenieError(c, started, 422, target.message);
  const body = await senderBody(c);
  if (!body.ok) return opsgenieError(c, started, 400, 'Invalid JSON body');
  const parsed = parseOpsgenieTextUpdate(field, body.value ?? null);
  if (!parsed.ok) {
    return opsgenieError(c, started, 422, 'Request body is not processable. Please check the errors.', {
      errors: parsed.errors,
    });
  }
  const { ref } = target;
  if (ref) await gate.run(() => updateSenderAlertText(deps.ctx, integration, ref, parsed.change));
  return accepted(c, started);
}

async function addNote(
  c: Context<AppEnv>,
  deps: IngestDeps,
  gate: IntakeGate,
  integration: KeyedIntegration,
  ref: SenderAlertRef,
  text: string,
  started: number,
): Promise<Response> {
  try {
    await gate.run(() => addSenderAlertNote(deps.ctx, integration, ref, text));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'not_found') return opsgenieError(c, started, 404, 'Alert does not exist');
    if (error.code === 'conflict') return opsgenieError(c, started, 409, error.message);
    throw error;
  }
  return accepted(c, started);
}

/** The note as the timeline shows it: the text, with the sender's `user` when it names one. */
function noteText(fields: OpsgenieAlertAction): string | null {
  const note = fields.note?.trim();
  if (!note) return null;
  const user = fields.user?.trim();
  const text = user ? `${user}: ${note}` : note;
  return text.slice(0, AddNoteInput.shape.text.maxLength ?? text.length);
}

/**
 * The integration `Authorization: GenieKey <key>` names, or the answer refusing it: 422 "Key format is
 * not valid!" without a GenieKey, 401 "Could not authenticate" for a key no enabled Opsgenie
 * integration has — Opsgenie's own words, which its clients print.
 */
async function authenticate(
  c: Context<AppEnv>,
  deps: IngestDeps,
  started: number,
): Promise<KeyedIntegration | Response> {
  const match = /^GenieKey\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  if (!match) return opsgenieError(c, started, 422, 'Key format is not valid!');
  const integration = await senderIntegration(deps.ctx, match[1]!, 'opsgenie');
  return integration ?? opsgenieError(c, started, 401, 'Could not authenticate');
}

function accepted(c: Context<AppEnv>, started: number): Response {
  return c.json({ result: 'Request will be processed', ...timing(c, started) }, 202);
}

function opsgenieError(
  c: Context<AppEnv>,
  started: number,
  status: ContentfulStatusCode,
  message: string,
  extra: Record<string, unknown> = {},
): Response {
  return c.json({ message, ...extra, ...timing(c, started) }, status);
}

/** Opsgenie's `took` (seconds) and `requestId`: the request's own id, the one in our logs. */
function timing(c: Context<AppEnv>, started: number): { took: number; requestId: string } {
  return {
    took: Math.round(performance.now() - started) / 1000,
    requestId: c.get('requestId') ?? randomUUID(),
  };
}
