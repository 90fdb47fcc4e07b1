import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  CalendarFeed,
  CreateEscalationPolicyInput,
  CreateOverrideInput,
  CreateScheduleInput,
  CreateUserInput,
  EscalationPolicy,
  FinalShiftList,
  OnCall,
  OnCallQuery,
  Schedule,
  ScheduleOverride,
  ScheduleOverrideList,
  ShiftWindowQuery,
  UpdateEscalationPolicyInput,
  UpdateOwnProfileInput,
  UpdateScheduleInput,
  UpdateUserInput,
  User,
} from '@firebreak/schema';
import { z } from 'zod';
import { collectionOperations } from './collection';
import { IdParams } from './params';

/** `{id}` of a user: a UUID, or `me` for whoever asks. */
const UserRefParams = z.object({
  id: z
    .union([z.literal('me'), z.guid().toLowerCase()], {
      error: (issue) => `No user "${String(issue.input)}".`,
    })
    .meta({ description: 'The user’s UUID, or `me`' }),
});

const OverrideParams = IdParams.extend({
  override_id: z
    .guid({ error: (issue) => `No override with id "${String(issue.input)}".` })
    .toLowerCase()
    .meta({ description: 'The override’s UUID' }),
});

const shiftsDescription =
  'Who is on call when, with overrides applied (docs/schedules.md#overrides), merged into continuous spans and clipped to the window. `from` defaults to now, `to` to 14 days after `from`; the window is at most 90 days.';

export const userOperations = {
  ...collectionOperations('/api/v1/users', 'users', 'user', {
    item: User,
    create: CreateUserInput,
    update: UpdateUserInput,
  }),
  updateMe: defineOperation({
    method: 'patch',
    path: '/api/v1/users/me',
    access: 'viewer',
    summary: 'Change your own profile (shift notices)',
    request: { body: jsonBody(UpdateOwnProfileInput) },
    responses: { 200: answer('Changed', User), ...errorAnswers(400, 403, 415) },
  }),
  shifts: defineOperation({
    method: 'get',
    path: '/api/v1/users/{id}/shifts',
    access: 'viewer',
    summary: 'One person’s shifts in every schedule',
    description: shiftsDescription,
    request: { params: UserRefParams, query: ShiftWindowQuery },
    responses: { 200: answer('Shifts, by start', FinalShiftList), ...errorAnswers(400, 404) },
  }),
  createMyCalendarFeed: defineOperation({
    method: 'post',
    path: '/api/v1/users/me/calendar-feed',
    access: 'viewer',
    summary: 'A secret calendar URL of your shifts (replaces the previous one)',
    responses: { 201: answer('Created: the URL is shown only now', CalendarFeed), ...errorAnswers(403) },
  }),
  revokeMyCalendarFeed: defineOperation({
    method: 'delete',
    path: '/api/v1/users/me/calendar-feed',
    access: 'viewer',
    summary: 'Revoke your calendar URL',
    responses: { 204: answer('Revoked (or there was none)'), ...errorAnswers(403) },
  }),
  revokeUserCalendarFeed: defineOperation({
    method: 'delete',
    path: '/api/v1/users/{id}/calendar-feed',
    access: 'admin',
    summary: 'Revoke someone’s calendar URL',
    description: 'For a URL that leaked, or a person who left. Recorded in the audit log.',
    request: { params: IdParams },
    responses: { 204: answer('Revoked (or there was none)'), ...errorAnswers(403, 404) },
  }),
};

export const scheduleOperations = {
  ...collectionOperations('/api/v1/schedules', 'schedules', 'schedule', {
    item: Schedule,
    create: CreateScheduleInput,
    update: UpdateScheduleInput,
  }),
  onCall: defineOperation({
    method: 'get',
    path: '/api/v1/schedules/{id}/on-call',
    access: 'viewer',
    summary: 'Who is on call at `at` (default: now)',
    request: { params: IdParams, query: OnCallQuery },
    responses: { 200: answer('On call', OnCall), ...errorAnswers(400, 404) },
  }),
  shifts: defineOperation({
    method: 'get',
    path: '/api/v1/schedules/{id}/shifts',
    access: 'viewer',
    summary: 'The schedule’s final shifts',
    description: shiftsDescription,
    request: { params: IdParams, query: ShiftWindowQuery },
    responses: { 200: answer('Shifts, by start', FinalShiftList), ...errorAnswers(400, 404) },
  }),
  listOverrides: defineOperation({
    method: 'get',
    path: '/api/v1/schedules/{id}/overrides',
    access: 'viewer',
    summary: 'Overrides overlapping a window',
    description: '`from` defaults to now, `to` to 14 days after `from`; the window is at most 90 days.',
    request: { params: IdParams, query: ShiftWindowQuery },
    responses: { 200: answer('Overrides, by start', ScheduleOverrideList), ...errorAnswers(400, 404) },
  }),
  createOverride: defineOperation({
    method: 'post',
    path: '/api/v1/schedules/{id}/overrides',
    access: 'member',
    summary: 'Put someone on call for a window, above every layer',
    description:
      'Admins may create any override; a member only one with `user_id` = themselves ("take this shift").',
    request: { params: IdParams, body: jsonBody(CreateOverrideInput) },
    responses: { 201: answer('Created', ScheduleOverride), ...errorAnswers(400, 403, 404, 409, 415) },
  }),
  deleteOverride: defineOperation({
    method: 'delete',
    path: '/api/v1/schedules/{id}/overrides/{override_id}',
    access: 'member',
    summary: 'Delete an override',
    description: 'Admins may delete any override; a member only one they created.',
    request: { params: OverrideParams },
    responses: { 204: answer('Deleted'), ...errorAnswers(403, 404) },
  }),
  createCalendarFeed: defineOperation({
    method: 'post',
    path: '/api/v1/schedules/{id}/calendar-feed',
    access: 'admin',
    summary: 'A secret calendar URL of the schedule (replaces the previous one)',
    request: { params: IdParams },
    responses: { 201: answer('Created: the URL is shown only now', CalendarFeed), ...errorAnswers(403, 404) },
  }),
  revokeCalendarFeed: defineOperation({
    method: 'delete',
    path: '/api/v1/schedules/{id}/calendar-feed',
    access: 'admin',
    summary: 'Revoke the schedule’s calendar URL',
    request: { params: IdParams },
    responses: { 204: answer('Revoked (or there was none)'), ...errorAnswers(403, 404) },
  }),
};

export const escalationPolicyOperations = collectionOperations(
  '/api/v1/escalation-policies',
  'escalation_policies',
  'escalation policy',
  { item: EscalationPolicy, create: CreateEscalationPolicyInput, update: UpdateEscalationPolicyInput },
);
