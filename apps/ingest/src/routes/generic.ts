import { webhookIntegrations } from '@firebreak/domain';
import { addRawOperation, defineOperation, type HttpApp, jsonBody } from '@firebreak/http';
import { AppError, GenericWebhookBody, genericWebhookJsonSchema } from '@firebreak/schema';
import { readIntegrationSecret, reportInvalidSignature } from '@firebreak/services';
import { z } from 'zod';
import type { IngestDeps } from '../deps';
import type { IntakeGate } from '../intake';
import { genericSignatureMatches } from '../signatures';
import { intakeAnswers } from './intake-answer';
import { receiveJson } from './json-intake';

const { generic } = webhookIntegrations;

const schemaOperation = defineOperation({
  method: 'get',
  path: `${generic.path}/schema`,
  access: 'public',
  summary: 'The JSON Schema of the generic webhook’s body',
  responses: {
    200: { description: 'A JSON Schema (draft 2020-12)', content: { 'application/json': { schema: {} } } },
  },
});

const webhookOperation = defineOperation({
  method: 'post',
  path: generic.path,
  access: 'public',
  summary: 'Record alerts from any sender',
  description:
    'When a signing secret is set (Settings → Integrations), `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>` must match.',
  request: {
    body: jsonBody(GenericWebhookBody),
    headers: z.object({ 'x-service-signature': z.string().optional() }),
  },
  responses: intakeAnswers,
});

/** The generic webhook: our own JSON shape, optionally signed. */
export function addGenericWebhookRoutes(app: HttpApp, deps: IngestDeps, gate: IntakeGate): void {
  let schema: unknown;
  addRawOperation(app, schemaOperation, (c) => {
    schema ??= genericWebhookJsonSchema();
    return c.json(schema as object);
  });

  addRawOperation(app, webhookOperation, (c) =>
    receiveJson(c, deps.ctx, gate, generic.id, 'generic', async (raw) => {
      const secret = await readIntegrationSecret(deps.ctx, 'genericSigningSecret');
      if (secret !== null && !genericSignatureMatches(secret, raw, c.req.header('x-service-signature'))) {
        reportInvalidSignature(deps.ctx, generic.id, { request_id: c.get('requestId') });
        throw new AppError('invalid_signature', 'X-Service-Signature is missing or does not match the body.');
      }
    }),
  );
}
