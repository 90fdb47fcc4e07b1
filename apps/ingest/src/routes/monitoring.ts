import { parseAlertmanagerWebhook, parseGrafanaWebhook } from '@firebreak/domain';
import type { AppEnv } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import { readIntegrationSecret, reportInvalidSignature } from '@firebreak/services';
import type { Hono } from 'hono';
import type { IngestDeps } from '../deps';
import { type IntakeGate, ingest, rawJsonBody } from '../intake';
import { bearerMatches, grafanaSignatureMatches } from '../signatures';

/** Spec §4.3: Prometheus Alertmanager (v4 payload) and Grafana unified alerting. */
export function addMonitoringWebhookRoutes(app: Hono<AppEnv>, deps: IngestDeps, gate: IntakeGate): void {
  const { ctx } = deps;

  app.post('/api/v1/webhooks/metrics-alertmanager', async (c) => {
    const raw = await rawJsonBody(c);
    const token = await readIntegrationSecret(ctx, 'alertmanagerBearerToken');
    if (token !== null && !bearerMatches(token, c.req.header('authorization'))) {
      reportInvalidSignature(ctx, 'alertmanager', { request_id: c.get('requestId') });
      throw new AppError('invalid_signature', 'Authorization: Bearer <token> is missing or wrong.');
    }
    return c.json(await gate.run(() => ingest(ctx, 'alertmanager', raw, parseAlertmanagerWebhook)));
  });

  app.post('/api/v1/webhooks/dashboard-alerting', async (c) => {
    const raw = await rawJsonBody(c);
    const secret = await readIntegrationSecret(ctx, 'grafanaHmacSecret');
    if (secret !== null) {
      const timestampHeader = await readIntegrationSecret(ctx, 'grafanaTimestampHeader');
      const timestamp = timestampHeader ? c.req.header(timestampHeader) : undefined;
      const signature = c.req.header('x-grafana-alerting-signature');
      // With a timestamp header configured, the timestamp is part of what is signed and must be fresh,
      // so a captured request cannot be replayed later.
      const stale = timestampHeader !== null && !isFresh(timestamp, ctx.now());
      if (stale || !grafanaSignatureMatches(secret, raw, signature, timestamp)) {
        reportInvalidSignature(ctx, 'grafana', { request_id: c.get('requestId'), stale });
        throw new AppError('invalid_signature', 'X-Grafana-Alerting-Signature is missing or does not match.');
      }
    }
    return c.json(await gate.run(() => ingest(ctx, 'grafana', raw, parseGrafanaWebhook)));
  });
}

const REPLAY_WINDOW_SECONDS = 5 * 60;

function isFresh(timestamp: string | undefined, now: Date): boolean {
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(now.getTime() / 1000 - Number(timestamp)) <= REPLAY_WINDOW_SECONDS;
}
