import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  CreateMaintenanceWindowInput,
  ListMaintenanceWindowsQuery,
  MaintenanceWindow,
} from '@firebreak/schema';
import { z } from 'zod';
import { IdParams } from './params';

/**
 * Maintenance windows (docs/api.md#maintenance-windows). Scheduling one is operational work, like
 * working an incident: members and admins write, viewers read (docs/api.md#roles).
 */
export const maintenanceWindowOperations = {
  list: defineOperation({
    method: 'get',
    path: '/api/v1/maintenance-windows',
    access: 'viewer',
    summary: 'Maintenance windows, newest start first',
    request: { query: ListMaintenanceWindowsQuery },
    responses: {
      200: answer('Windows', z.object({ maintenance_windows: z.array(MaintenanceWindow) })),
      ...errorAnswers(400),
    },
  }),
  create: defineOperation({
    method: 'post',
    path: '/api/v1/maintenance-windows',
    access: 'member',
    summary: 'Schedule a maintenance window',
    request: { body: jsonBody(CreateMaintenanceWindowInput) },
    responses: { 201: answer('Scheduled', MaintenanceWindow), ...errorAnswers(400, 403, 415) },
  }),
  remove: defineOperation({
    method: 'delete',
    path: '/api/v1/maintenance-windows/{id}',
    access: 'member',
    summary: 'End an active window now (its alerts are released), or remove a scheduled or ended one',
    request: { params: IdParams },
    responses: { 204: answer('Ended or removed'), ...errorAnswers(403, 404) },
  }),
};
