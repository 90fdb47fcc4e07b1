import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  CreateStatusComponentInput,
  CreateStatusUpdateInput,
  IncidentStatusUpdates,
  PublicStatus,
  StatusComponent,
  StatusUpdate,
  UpdateStatusComponentInput,
} from '@firebreak/schema';
import { z } from 'zod';
import { IdParams, IncidentParams } from './params';

const components = '/api/v1/status-page/components';

/**
 * The public status page (docs/status-page.md). Components are configuration: admins write, viewers
 * read. Public updates are incident work: members and admins publish, viewers read
 * (docs/api.md#roles). `GET /api/v1/status` is public: it answers what `/status` shows, to anyone.
 */
export const statusPageOperations = {
  listComponents: defineOperation({
    method: 'get',
    path: components,
    access: 'viewer',
    summary: 'Status page components, in page order, with the status each shows now',
    responses: {
      200: answer('Components', z.object({ components: z.array(StatusComponent) })),
      ...errorAnswers(403),
    },
  }),
  createComponent: defineOperation({
    method: 'post',
    path: components,
    access: 'admin',
    summary: 'Add a component to the status page',
    description:
      '`match`: the labels (at least one) an open incident’s linked alert must all carry for the incident to change this component’s status. `status` set by hand wins until it is set back to null.',
    request: { body: jsonBody(CreateStatusComponentInput) },
    responses: { 201: answer('Created', StatusComponent), ...errorAnswers(400, 403, 415) },
  }),
  updateComponent: defineOperation({
    method: 'patch',
    path: `${components}/{id}`,
    access: 'admin',
    summary: 'Change a component (`status: null` hands its status back to its incidents)',
    request: { params: IdParams, body: jsonBody(UpdateStatusComponentInput) },
    responses: { 200: answer('Changed', StatusComponent), ...errorAnswers(400, 403, 404, 415) },
  }),
  removeComponent: defineOperation({
    method: 'delete',
    path: `${components}/{id}`,
    access: 'admin',
    summary: 'Remove a component from the status page',
    request: { params: IdParams },
    responses: { 204: answer('Removed'), ...errorAnswers(403, 404) },
  }),
  listUpdates: defineOperation({
    method: 'get',
    path: '/api/v1/incidents/{id}/status-updates',
    access: 'viewer',
    summary: 'The incident’s public updates, newest first, and its public heading',
    request: { params: IncidentParams },
    responses: { 200: answer('Its updates', IncidentStatusUpdates), ...errorAnswers(404) },
  }),
  publishUpdate: defineOperation({
    method: 'post',
    path: '/api/v1/incidents/{id}/status-updates',
    access: 'member',
    summary: 'Publish an update about the incident on the status page',
    description:
      'The incident appears on the page with its first update, and stays there while it is open and for 7 days after its last update once resolved. `title` sets its public heading from now on; without one ever given, the heading names the affected components. Writes a `status_update_published` timeline entry.',
    request: { params: IncidentParams, body: jsonBody(CreateStatusUpdateInput) },
    responses: { 201: answer('Published', StatusUpdate), ...errorAnswers(400, 403, 404, 415) },
  }),
  publicStatus: defineOperation({
    method: 'get',
    path: '/api/v1/status',
    access: 'public',
    summary: 'The public status page as JSON',
    description:
      'What `/status` shows: the title, the overall status, the components and the listed incidents with their updates. Nothing else: no incident title, label, alert, person or internal id. At most 50 incidents (ongoing ones first), each with its newest 20 updates. `Cache-Control: public, max-age=30` on success only; each process computes it at most once per 10 s.',
    responses: { 200: answer('The page', PublicStatus) },
  }),
};
