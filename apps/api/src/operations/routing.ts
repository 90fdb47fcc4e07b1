import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  CreateRoutingRuleInput,
  RoutingPreviewInput,
  RoutingRule,
  UpdateRoutingRuleInput,
} from '@firebreak/schema';
import { z } from 'zod';
import { IdParams } from './params';

/** Routing rules are configuration: admins write, everyone reads. */
export const routingRuleOperations = {
  list: defineOperation({
    method: 'get',
    path: '/api/v1/routing-rules',
    access: 'viewer',
    summary: 'Routing rules in evaluation order',
    responses: { 200: answer('Rules', z.object({ routing_rules: z.array(RoutingRule) })) },
  }),
  create: defineOperation({
    method: 'post',
    path: '/api/v1/routing-rules',
    access: 'admin',
    summary: 'Create a rule',
    request: { body: jsonBody(CreateRoutingRuleInput) },
    responses: { 201: answer('Created', RoutingRule), ...errorAnswers(400, 403, 415) },
  }),
  preview: defineOperation({
    method: 'post',
    path: '/api/v1/routing-rules/preview',
    access: 'viewer',
    summary: 'Which rule would take this alert (changes nothing)',
    request: { body: jsonBody(RoutingPreviewInput) },
    responses: {
      200: answer('The outcome', z.object({ rule: RoutingRule.nullable(), outcome: z.string() })),
      ...errorAnswers(400, 415),
    },
  }),
  get: defineOperation({
    method: 'get',
    path: '/api/v1/routing-rules/{id}',
    access: 'viewer',
    summary: 'One rule',
    request: { params: IdParams },
    responses: { 200: answer('The rule', RoutingRule), ...errorAnswers(404) },
  }),
  update: defineOperation({
    method: 'patch',
    path: '/api/v1/routing-rules/{id}',
    access: 'admin',
    summary: 'Change a rule',
    request: { params: IdParams, body: jsonBody(UpdateRoutingRuleInput) },
    responses: { 200: answer('The rule', RoutingRule), ...errorAnswers(400, 403, 404, 415) },
  }),
  remove: defineOperation({
    method: 'delete',
    path: '/api/v1/routing-rules/{id}',
    access: 'admin',
    summary: 'Delete a rule',
    request: { params: IdParams },
    responses: { 204: answer('Deleted'), ...errorAnswers(403, 404) },
  }),
};
