import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  AddNoteInput,
  Alert,
  AlertStatus,
  CreateIncidentInput,
  EscalateInput,
  Incident,
  IncidentItemsQuery,
  IncidentList,
  ListIncidentsQuery,
  PageLimit,
  TimelineEntry,
  UpdateIncidentInput,
} from '@firebreak/schema';
import { z } from 'zod';
import { IncidentParams } from './params';

export const ListAlertsQuery = z.object({
  status: AlertStatus.optional(),
  source: z.string().min(1).max(200).optional(),
  limit: PageLimit,
  cursor: z.string().max(300).optional(),
  sort: z.literal('-received_at', { error: 'the only order is -received_at (newest first)' }).optional(),
});

/** Incidents, their timeline and notes; members change them, viewers read them. */
export const incidentOperations = {
  create: defineOperation({
    method: 'post',
    path: '/api/v1/incidents',
    access: 'member',
    summary: 'Open an incident',
    request: { body: jsonBody(CreateIncidentInput) },
    responses: { 201: answer('Created', Incident), ...errorAnswers(400, 403, 415) },
  }),
  list: defineOperation({
    method: 'get',
    path: '/api/v1/incidents',
    access: 'viewer',
    summary: 'List incidents, newest first',
    request: { query: ListIncidentsQuery },
    responses: { 200: answer('A page', IncidentList), ...errorAnswers(400) },
  }),
  get: defineOperation({
    method: 'get',
    path: '/api/v1/incidents/{id}',
    access: 'viewer',
    summary: 'One incident',
    request: { params: IncidentParams },
    responses: { 200: answer('The incident', Incident), ...errorAnswers(404) },
  }),
  update: defineOperation({
    method: 'patch',
    path: '/api/v1/incidents/{id}',
    access: 'member',
    summary: 'Change status, severity, title, description or commander',
    request: { params: IncidentParams, body: jsonBody(UpdateIncidentInput) },
    responses: { 200: answer('The incident', Incident), ...errorAnswers(400, 403, 404, 409, 415) },
  }),
  timeline: defineOperation({
    method: 'get',
    path: '/api/v1/incidents/{id}/timeline',
    access: 'viewer',
    summary: 'The timeline, oldest first, a page at a time',
    description:
      '`limit` 1–500 (default 100); follow `next_cursor` (null on the last page) for the next page.',
    request: { params: IncidentParams, query: IncidentItemsQuery },
    responses: {
      200: answer(
        'A page of entries',
        z.object({ entries: z.array(TimelineEntry), next_cursor: z.string().nullable() }),
      ),
      ...errorAnswers(400, 404),
    },
  }),
  addNote: defineOperation({
    method: 'post',
    path: '/api/v1/incidents/{id}/notes',
    access: 'member',
    summary: 'Add a note',
    request: { params: IncidentParams, body: jsonBody(AddNoteInput) },
    responses: { 201: answer('The note', TimelineEntry), ...errorAnswers(400, 403, 404, 409, 415) },
  }),
  escalate: defineOperation({
    method: 'post',
    path: '/api/v1/incidents/{id}/escalate',
    access: 'member',
    summary: 'Page the next tier of the escalation policy now',
    description:
      'Triggered: the next tier is paged now and the tier after it is due its timeout from now. ' +
      'Acknowledged: the next tier is paged once (through chat), and no timer restarts. 409 `incident_not_open` ' +
      'when resolved; 409 `no_next_tier` without a policy or once its last tier was paged (and it does not repeat); ' +
      '409 `no_reachable_target` when acknowledged and nobody of the tier can be reached by chat; 409 `conflict` ' +
      'when `expected_tier` (the `next_tier` the caller saw) was paged meanwhile — nothing is paged then.',
    request: { params: IncidentParams, body: jsonBody(EscalateInput) },
    responses: {
      200: answer(
        'The incident, and the tier paged (1-based)',
        Incident.extend({ escalated_to_tier: z.number().int().min(1) }),
      ),
      ...errorAnswers(400, 403, 404, 409, 415),
    },
  }),
};

export const alertOperations = {
  list: defineOperation({
    method: 'get',
    path: '/api/v1/alerts',
    access: 'viewer',
    summary: 'List alerts, newest received first',
    request: { query: ListAlertsQuery },
    responses: {
      200: answer('A page', z.object({ alerts: z.array(Alert), next_cursor: z.string().nullable() })),
      ...errorAnswers(400),
    },
  }),
  ofIncident: defineOperation({
    method: 'get',
    path: '/api/v1/incidents/{id}/alerts',
    access: 'viewer',
    summary: 'The alerts linked to an incident, a page at a time',
    description:
      '`limit` 1–500 (default 100); follow `next_cursor` (null on the last page) for the next page. The order is fixed (by alert id), not by time: a repeated delivery changes `received_at` but moves no alert between pages; sort the collected alerts as you need.',
    request: { params: IncidentParams, query: IncidentItemsQuery },
    responses: {
      200: answer(
        'A page of alerts',
        z.object({ alerts: z.array(Alert), next_cursor: z.string().nullable() }),
      ),
      ...errorAnswers(400, 404),
    },
  }),
};
