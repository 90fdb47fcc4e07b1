import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  CreateIntegrationInput,
  Integration,
  IntegrationList,
  UpdateIntegrationInput,
} from '@firebreak/schema';
import { IdParams } from './params';

const masked = 'Admins see `key` and `intake_url` whole; members and viewers see them masked.';

/** Integrations (docs/api.md#integrations): admins write, everyone reads, only admins see keys. */
export const integrationOperations = {
  list: defineOperation({
    method: 'get',
    path: '/api/v1/integrations',
    access: 'viewer',
    summary: 'Integrations, oldest first',
    description: masked,
    responses: { 200: answer('Integrations', IntegrationList) },
  }),
  create: defineOperation({
    method: 'post',
    path: '/api/v1/integrations',
    access: 'admin',
    summary: 'Create an integration with its own intake key',
    description:
      'Heartbeats need `interval_seconds` (≥ 30) and may set `grace_seconds` (default 60) and `severity` (default critical); other types must not give them.',
    request: { body: jsonBody(CreateIntegrationInput) },
    responses: { 201: answer('Created', Integration), ...errorAnswers(400, 403, 415) },
  }),
  get: defineOperation({
    method: 'get',
    path: '/api/v1/integrations/{id}',
    access: 'viewer',
    summary: 'One integration',
    description: masked,
    request: { params: IdParams },
    responses: { 200: answer('The integration', Integration), ...errorAnswers(404) },
  }),
  update: defineOperation({
    method: 'patch',
    path: '/api/v1/integrations/{id}',
    access: 'admin',
    summary: 'Change an integration (its type is fixed)',
    description:
      'A new `interval_seconds` or `grace_seconds` moves an armed heartbeat’s deadline to its last ping + interval + grace.',
    request: { params: IdParams, body: jsonBody(UpdateIntegrationInput) },
    responses: { 200: answer('The integration', Integration), ...errorAnswers(400, 403, 404, 415) },
  }),
  rotateKey: defineOperation({
    method: 'post',
    path: '/api/v1/integrations/{id}/rotate-key',
    access: 'admin',
    summary: 'Replace the intake key; the old one stops working at once',
    request: { params: IdParams },
    responses: { 200: answer('The integration with its new key', Integration), ...errorAnswers(403, 404) },
  }),
  remove: defineOperation({
    method: 'delete',
    path: '/api/v1/integrations/{id}',
    access: 'admin',
    summary: 'Delete an integration (its alerts stay, unlinked)',
    request: { params: IdParams },
    responses: { 204: answer('Deleted'), ...errorAnswers(403, 404) },
  }),
};
