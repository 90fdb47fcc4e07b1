import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  CreatedUnavailability,
  CreateUnavailabilityInput,
  ScheduleUnavailabilityList,
  ShiftWindowQuery,
} from '@firebreak/schema';
import { z } from 'zod';
import { IdParams } from './params';

const UnavailabilityParams = IdParams.extend({
  unavailability_id: z
    .guid({ error: (issue) => `No unavailability with id "${String(issue.input)}".` })
    .toLowerCase()
    .meta({ description: 'The unavailability’s UUID' }),
});

/** Unavailability in schedules (docs/api.md#unavailability, docs/schedules.md#unavailability). */
export const scheduleUnavailabilityOperations = {
  listUnavailability: defineOperation({
    method: 'get',
    path: '/api/v1/schedules/{id}/unavailability',
    access: 'viewer',
    summary: 'Unavailability overlapping a window',
    description: '`from` defaults to now, `to` to 14 days after `from`; the window is at most 90 days.',
    request: { params: IdParams, query: ShiftWindowQuery },
    responses: { 200: answer('Ranges, by start', ScheduleUnavailabilityList), ...errorAnswers(400, 404) },
  }),
  createUnavailability: defineOperation({
    method: 'post',
    path: '/api/v1/schedules/{id}/unavailability',
    access: 'member',
    summary: 'Mark someone unavailable: their turns in the layers go to the next available participant',
    description:
      'Admins may mark anyone who takes part in a layer of the schedule; a member only themselves, from now on (a start more than 5 minutes in the past is 400). The range lasts at most 90 days and must not be over. 409 `unavailability_conflict`: an override puts the person on call inside the range, another range of theirs in this schedule overlaps it, or they already have 50 ranges here that are not over.',
    request: { params: IdParams, body: jsonBody(CreateUnavailabilityInput) },
    responses: {
      201: answer(
        'Created; `leaves_gap` when nobody is on call at some instant of it from now on',
        CreatedUnavailability,
      ),
      ...errorAnswers(400, 403, 404, 409, 415),
    },
  }),
  deleteUnavailability: defineOperation({
    method: 'delete',
    path: '/api/v1/schedules/{id}/unavailability/{unavailability_id}',
    access: 'member',
    summary: 'Delete an unavailability',
    description: 'Admins may delete any; a member only their own.',
    request: { params: UnavailabilityParams },
    responses: { 204: answer('Deleted'), ...errorAnswers(403, 404) },
  }),
};
