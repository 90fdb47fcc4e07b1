import {
  AddNoteInput,
  Alert,
  CreateIncidentInput,
  Incident,
  IncidentList,
  ListIncidentsQuery,
  TimelineEntry,
  UpdateIncidentInput,
} from '@firebreak/schema';
import { z } from 'zod';
import { ListAlertsQuery } from '../routes/alerts';
import { errors, ok, op, type Paths } from './helpers';

const incidentId = z.object({ id: z.string().meta({ description: 'Incident UUID or number' }) });

export const incidentPaths: Paths = {
  '/api/v1/incidents': {
    get: op(
      'List incidents, newest first',
      { ...ok(200, 'A page', IncidentList), ...errors(400) },
      {
        requestParams: { query: ListIncidentsQuery },
      },
    ),
    post: op(
      'Open an incident',
      { ...ok(201, 'Created', Incident), ...errors(400, 403, 415) },
      {
        requestBody: { content: { 'application/json': { schema: CreateIncidentInput } } },
      },
    ),
  },
  '/api/v1/incidents/{id}': {
    get: op(
      'One incident',
      { ...ok(200, 'The incident', Incident), ...errors(404) },
      {
        requestParams: { path: incidentId },
      },
    ),
    patch: op(
      'Change status, severity, title, description or commander',
      { ...ok(200, 'The incident', Incident), ...errors(400, 403, 404, 409, 415) },
      {
        requestParams: { path: incidentId },
        requestBody: { content: { 'application/json': { schema: UpdateIncidentInput } } },
      },
    ),
  },
  '/api/v1/incidents/{id}/timeline': {
    get: op(
      'The timeline, oldest first',
      { ...ok(200, 'Entries', z.object({ entries: z.array(TimelineEntry) })), ...errors(404) },
      { requestParams: { path: incidentId } },
    ),
  },
  '/api/v1/incidents/{id}/notes': {
    post: op(
      'Add a note',
      { ...ok(201, 'The note', TimelineEntry), ...errors(400, 403, 404, 409) },
      {
        requestParams: { path: incidentId },
        requestBody: { content: { 'application/json': { schema: AddNoteInput } } },
      },
    ),
  },
  '/api/v1/incidents/{id}/alerts': {
    get: op(
      'The alerts linked to an incident',
      { ...ok(200, 'Alerts', z.object({ alerts: z.array(Alert) })) },
      {
        requestParams: { path: incidentId },
      },
    ),
  },
  '/api/v1/alerts': {
    get: op(
      'List alerts, newest received first',
      {
        ...ok(200, 'A page', z.object({ alerts: z.array(Alert), next_cursor: z.string().nullable() })),
        ...errors(400),
      },
      { requestParams: { query: ListAlertsQuery } },
    ),
  },
};
