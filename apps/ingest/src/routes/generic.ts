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
    'When a signing secret is set (Settings → Integrations), `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>` must match; ' +
    'with `X-Service-Timestamp: <unix seconds>` the HMAC is of `<timestamp>.<raw body>` and the timestamp must be within 5 minutes of the server clock.',
  request: {
    body: jsonBody(GenericWebhookBody),
    headers: z.object({
      'x-service-signature': z.string().optional(),
      'x-service-timestamp': z.string().optional(),
    }),
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
      if (secret === null) return;
      const headers = {
        signature: c.req.header('x-service-signature'),
        timestamp: c.req.header('x-service-timestamp'),
      };
      if (!genericSignatureMatches(secret, raw, headers, deps.ctx.now())) {
        reportInvalidSignature(deps.ctx, generic.id, { request_id: c.get('requestId') });
        throw new AppError(
          'invalid_signature',
          headers.timestamp === undefined
            ? 'X-Service-Signature is missing or does not match the body.'
            : 'X-Service-Signature does not match the timestamp and body, or X-Service-Timestamp is not within 5 minutes of now.',
        );
      }
    }),
  );
}
