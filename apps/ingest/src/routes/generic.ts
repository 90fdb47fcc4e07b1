import { parseGenericWebhook } from '@firebreak/domain';
import type { AppEnv } from '@firebreak/http';
import { AppError, genericWebhookJsonSchema } from '@firebreak/schema';
import { readIntegrationSecret, reportInvalidSignature } from '@firebreak/services';
import type { Hono } from 'hono';
import type { IngestDeps } from '../deps';
import { type IntakeGate, ingest, rawJsonBody } from '../intake';
import { genericSignatureMatches } from '../signatures';

/** Spec §4.2 and §5.2. */
export function addGenericWebhookRoutes(app: Hono<AppEnv>, deps: IngestDeps, gate: IntakeGate): void {
  let schema: unknown;
  app.get('/api/v1/webhooks/generic/schema', (c) => {
    schema ??= genericWebhookJsonSchema();
    return c.json(schema as object);
  });

  app.post('/api/v1/webhooks/generic', async (c) => {
    const raw = await rawJsonBody(c);
    const secret = await readIntegrationSecret(deps.ctx, 'genericSigningSecret');
    if (secret !== null && !genericSignatureMatches(secret, raw, c.req.header('x-service-signature'))) {
      reportInvalidSignature(deps.ctx, 'generic', { request_id: c.get('requestId') });
      throw new AppError('invalid_signature', 'X-Service-Signature is missing or does not match the body.');
    }
    return c.json(await gate.run(() => ingest(deps.ctx, 'generic', raw, parseGenericWebhook)));
  });
}
