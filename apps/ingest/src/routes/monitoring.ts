import { webhookIntegrations } from '@firebreak/domain';
import { addRawOperation, defineOperation, type HttpApp, jsonBody } from '@firebreak/http';
import { AlertmanagerPayload, AppError, GrafanaPayload } from '@firebreak/schema';
import { readIntegrationSecret, reportInvalidSignature } from '@firebreak/services';
import { z } from 'zod';
import type { IngestDeps } from '../deps';
import type { IntakeGate } from '../intake';
import { bearerMatches, grafanaSignatureMatches } from '../signatures';
import { intakeAnswers } from './intake-answer';
import { receiveJson } from './json-intake';

const { alertmanager, grafana } = webhookIntegrations;

const alertmanagerOperation = defineOperation({
  method: 'post',
  path: alertmanager.path,
  access: 'public',
  summary: 'Record alerts from Prometheus Alertmanager (webhook payload version 4)',
  description:
    'When a bearer token is set (Settings → Integrations), `Authorization: Bearer <token>` must carry it.',
  request: {
    body: jsonBody(AlertmanagerPayload),
    headers: z.object({ authorization: z.string().optional() }),
  },
  responses: intakeAnswers,
});

const grafanaOperation = defineOperation({
  method: 'post',
  path: grafana.path,
  access: 'public',
  summary: 'Record alerts from Grafana unified alerting',
  description:
    'When an HMAC secret is set, `X-Grafana-Alerting-Signature` must be the hex HMAC-SHA256 of the body (of `<timestamp>:<body>` when a timestamp header is set, and that timestamp within 5 minutes).',
  request: {
    body: jsonBody(GrafanaPayload),
    headers: z.object({ 'x-grafana-alerting-signature': z.string().optional() }),
  },
  responses: intakeAnswers,
});

/** Prometheus Alertmanager (v4 payload) and Grafana unified alerting. */
export function addMonitoringWebhookRoutes(app: HttpApp, deps: IngestDeps, gate: IntakeGate): void {
  const { ctx } = deps;

  addRawOperation(app, alertmanagerOperation, (c) =>
    receiveJson(c, ctx, gate, alertmanager.id, 'alertmanager', async () => {
      const token = await readIntegrationSecret(ctx, 'alertmanagerBearerToken');
      if (token !== null && !bearerMatches(token, c.req.header('authorization'))) {
        reportInvalidSignature(ctx, alertmanager.id, { request_id: c.get('requestId') });
        throw new AppError('invalid_signature', 'Authorization: Bearer <token> is missing or wrong.');
      }
    }),
  );

  addRawOperation(app, grafanaOperation, (c) =>
    receiveJson(c, ctx, gate, grafana.id, 'grafana', async (raw) => {
      const secret = await readIntegrationSecret(ctx, 'grafanaHmacSecret');
      if (secret === null) return;
      const timestampHeader = await readIntegrationSecret(ctx, 'grafanaTimestampHeader');
      const timestamp = timestampHeader ? c.req.header(timestampHeader) : undefined;
      const signature = c.req.header('x-grafana-alerting-signature');
      // With a timestamp header configured, the timestamp is part of what is signed and must be fresh,
      // so a captured request cannot be replayed later.
      const stale = timestampHeader !== null && !isFresh(timestamp, ctx.now());
      if (stale || !grafanaSignatureMatches(secret, raw, signature, timestamp)) {
        reportInvalidSignature(ctx, grafana.id, { request_id: c.get('requestId'), stale });
        throw new AppError('invalid_signature', 'X-Grafana-Alerting-Signature is missing or does not match.');
      }
    }),
  );
}

const REPLAY_WINDOW_SECONDS = 5 * 60;

function isFresh(timestamp: string | undefined, now: Date): boolean {
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(now.getTime() / 1000 - Number(timestamp)) <= REPLAY_WINDOW_SECONDS;
}
