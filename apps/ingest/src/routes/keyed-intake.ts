import { addRawOperation, answer, defineOperation, errorAnswers, type HttpApp } from '@firebreak/http';
import {
  AlertmanagerPayload,
  AppError,
  GenericWebhookBody,
  GrafanaPayload,
  HeartbeatPingAnswer,
  SnsEnvelope,
} from '@firebreak/schema';
import { findKeyedIntegration, pingHeartbeat, unknownIntakeKey } from '@firebreak/services';
import { z } from 'zod';
import type { IngestDeps } from '../deps';
import type { IntakeGate } from '../intake';
import { snsAnswer } from './cloud-monitor';
import { intakeAnswers } from './intake-answer';
import { receiveJson } from './json-intake';
import type { SnsDelivery } from './sns-delivery';

const KeyParams = z.object({
  key: z.string().meta({ description: 'The integration’s intake key (its credential)' }),
});

const postOperation = defineOperation({
  method: 'post',
  path: '/api/v1/intake/{key}',
  access: 'public',
  summary: 'Record alerts at an integration’s own URL, or ping a heartbeat',
  description:
    'Takes the body of the integration’s type and answers exactly as that type’s fixed path does: `generic` the generic webhook body, `alertmanager` an Alertmanager webhook, `grafana` a Grafana webhook, `cloudwatch` an SNS message (signature and topic allowlist checked, subscriptions confirmed). No secret or bearer token: the key is the credential. A `heartbeat` takes any body, or none, as a ping. An unknown, deleted or disabled key answers 404, and so does a `pagerduty` or `opsgenie` key, with GET or POST: their senders post to the originals’ paths instead (`/v2/enqueue`, `/generic/2010-04-15/create_event.json`, `/v2/alerts`).',
  request: {
    params: KeyParams,
    body: {
      content: {
        'application/json': { schema: z.union([GenericWebhookBody, AlertmanagerPayload, GrafanaPayload]) },
        'text/plain': { schema: SnsEnvelope },
      },
      required: false,
    },
  },
  responses: {
    ...intakeAnswers,
    ...errorAnswers(404),
    200: answer(
      'Alerts recorded, an SNS subscription confirmed or ended, or a heartbeat pinged',
      z.union([snsAnswer, HeartbeatPingAnswer]),
    ),
  },
});

const getOperation = defineOperation({
  method: 'get',
  path: '/api/v1/intake/{key}',
  access: 'public',
  summary: 'Ping a heartbeat',
  description:
    'A `heartbeat` key is pinged (200). A `generic`, `alertmanager`, `grafana` or `cloudwatch` key answers 405 `method_not_allowed` with `Allow: POST` (its alerts are sent with POST). A `pagerduty` or `opsgenie` key answers 404 `not_found`, as its POST does and as an unknown, deleted or disabled key does: this URL takes nothing from those types.',
  request: { params: KeyParams },
  responses: { 200: answer('Pinged', HeartbeatPingAnswer), ...errorAnswers(404, 405, 503) },
});

/**
 * Intake by key (docs/integrations/keyed-intake.md): the key names the integration, whose type picks
 * the same code the fixed path of that type runs, and whose id, labels and policy go with its alerts.
 */
export function addKeyedIntakeRoutes(
  app: HttpApp,
  deps: IngestDeps,
  gate: IntakeGate,
  sns: SnsDelivery,
): void {
  const { ctx } = deps;

  addRawOperation(app, postOperation, async (c) => {
    const integration = await findKeyedIntegration(ctx, c.req.param('key') ?? '');
    switch (integration.type) {
      case 'heartbeat':
        return c.json(await gate.run(() => pingHeartbeat(ctx, integration.id)));
      case 'cloudwatch':
        return sns.receive(c, integration.source);
      case 'generic':
      case 'alertmanager':
      case 'grafana':
        return receiveJson(c, ctx, gate, integration.source, integration.type);
      default:
        // pagerduty and opsgenie: their senders use the originals' APIs, which carry the key in the body
        // or a header (`POST /v2/enqueue`, `/generic/2010-04-15/create_event.json`, `/v2/alerts`;
        // docs/integrations/pagerduty-opsgenie-apis.md). This URL stays 404 for them.
        throw unknownIntakeKey();
    }
  });

  addRawOperation(app, getOperation, async (c) => {
    const integration = await findKeyedIntegration(ctx, c.req.param('key') ?? '');
    switch (integration.type) {
      case 'heartbeat':
        return c.json(await gate.run(() => pingHeartbeat(ctx, integration.id)));
      case 'pagerduty':
      case 'opsgenie':
        // This URL takes nothing from them, whatever the method: a 405 with `Allow: POST` would send
        // the sender to a POST that is 404 too.
        throw unknownIntakeKey();
      default:
        c.header('Allow', 'POST');
        throw new AppError(
          'method_not_allowed',
          'This integration takes alerts with POST; only a heartbeat is pinged with GET.',
        );
    }
  });
}
