import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  CreateOutgoingWebhookInput,
  ListWebhookDeliveriesQuery,
  OutgoingWebhook,
  UpdateOutgoingWebhookInput,
  WebhookDelivery,
} from '@firebreak/schema';
import { z } from 'zod';
import { IdParams } from './params';

const path = '/api/v1/outgoing-webhooks';

/**
 * Outgoing webhooks (docs/integrations/outgoing-webhooks.md) are admin-only, reads included: the
 * URLs often carry a receiver's token, and the delivery log shows what the receivers answered.
 */
export const outgoingWebhookOperations = {
  list: defineOperation({
    method: 'get',
    path,
    access: 'admin',
    summary: 'List outgoing webhooks',
    responses: {
      200: answer('All of them, oldest first', z.object({ outgoing_webhooks: z.array(OutgoingWebhook) })),
      ...errorAnswers(403),
    },
  }),
  create: defineOperation({
    method: 'post',
    path,
    access: 'admin',
    summary: 'Register a URL that receives incident events',
    request: { body: jsonBody(CreateOutgoingWebhookInput) },
    responses: { 201: answer('Created', OutgoingWebhook), ...errorAnswers(400, 403, 415) },
  }),
  update: defineOperation({
    method: 'patch',
    path: `${path}/{id}`,
    access: 'admin',
    summary: 'Change an outgoing webhook (`secret: null` removes its secret)',
    request: { params: IdParams, body: jsonBody(UpdateOutgoingWebhookInput) },
    responses: { 200: answer('Changed', OutgoingWebhook), ...errorAnswers(400, 403, 404, 415) },
  }),
  remove: defineOperation({
    method: 'delete',
    path: `${path}/{id}`,
    access: 'admin',
    summary: 'Delete an outgoing webhook, its pending deliveries and its delivery log',
    request: { params: IdParams },
    responses: { 204: answer('Deleted'), ...errorAnswers(403, 404) },
  }),
  deliveries: defineOperation({
    method: 'get',
    path: `${path}/{id}/deliveries`,
    access: 'admin',
    summary: "An outgoing webhook's delivery log, newest first",
    request: { params: IdParams, query: ListWebhookDeliveriesQuery },
    responses: {
      200: answer('Its deliveries', z.object({ deliveries: z.array(WebhookDelivery) })),
      ...errorAnswers(400, 403, 404),
    },
  }),
};
