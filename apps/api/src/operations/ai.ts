import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import { AiJob, HandoffDigest, HandoffDigestInput } from '@firebreak/schema';
import { z } from 'zod';
import { IdParams, IncidentParams } from './params';

const Queued = z.object({ job_id: z.uuid() });
const notConfigured = 'Without an AI provider (`AI_PROVIDER=none`) this answers 409 `ai_not_configured`.';

/**
 * AI drafts: each request queues a job and answers at once; the result is read when it is done (the
 * post-mortem draft in the document: operations/postmortems.ts).
 */
export const aiOperations = {
  summary: defineOperation({
    method: 'post',
    path: '/api/v1/incidents/{id}/summary',
    access: 'member',
    summary: 'Draft a summary of the incident into its timeline',
    description: notConfigured,
    request: { params: IncidentParams },
    responses: { 202: answer('Queued; follow the job', Queued), ...errorAnswers(403, 404, 409) },
  }),
  requestPostmortem: defineOperation({
    method: 'post',
    path: '/api/v1/incidents/{id}/postmortem',
    access: 'member',
    summary: 'Draft a post-mortem of the incident',
    description: notConfigured,
    request: { params: IncidentParams },
    responses: { 202: answer('Queued; follow the job', Queued), ...errorAnswers(403, 404, 409) },
  }),
  requestHandoffDigest: defineOperation({
    method: 'post',
    path: '/api/v1/handoff-digests',
    access: 'member',
    summary: 'Draft a digest of a shift (default: the last 12 hours)',
    description: notConfigured,
    request: { body: jsonBody(HandoffDigestInput) },
    responses: {
      202: answer('Queued; read the digest by id', z.object({ id: z.uuid() })),
      ...errorAnswers(400, 403, 409, 415),
    },
  }),
  getHandoffDigest: defineOperation({
    method: 'get',
    path: '/api/v1/handoff-digests/{id}',
    access: 'viewer',
    summary: 'One handoff digest',
    request: { params: IdParams },
    responses: { 200: answer('The digest', HandoffDigest), ...errorAnswers(404) },
  }),
  getJob: defineOperation({
    method: 'get',
    path: '/api/v1/ai-jobs/{id}',
    access: 'viewer',
    summary: 'Where an AI job stands',
    request: { params: IdParams },
    responses: { 200: answer('The job', AiJob), ...errorAnswers(404) },
  }),
};
