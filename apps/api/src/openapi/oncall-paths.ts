import {
  CreateEscalationPolicyInput,
  CreateScheduleInput,
  CreateUserInput,
  EscalationPolicy,
  OnCall,
  OnCallQuery,
  Schedule,
  UpdateEscalationPolicyInput,
  UpdateScheduleInput,
  UpdateUserInput,
  User,
} from '@firebreak/schema';
import { z } from 'zod';
import { errors, json, ok, op, type Paths } from './helpers';

const byId = { path: z.object({ id: z.uuid() }) };

/** List and create on `path`; read, change and delete on `path/{id}`. Writes are admin-only. */
function collection(
  path: string,
  listKey: string,
  noun: string,
  schemas: { item: z.ZodType; create: z.ZodType; update: z.ZodType },
): Paths {
  return {
    [path]: {
      get: op(`List ${noun}s`, ok(200, 'All of them', z.object({ [listKey]: z.array(schemas.item) }))),
      post: op(
        `Create a ${noun} (admin)`,
        { ...ok(201, 'Created', schemas.item), ...errors(400, 403, 409, 415) },
        { requestBody: json(schemas.create) },
      ),
    },
    [`${path}/{id}`]: {
      get: op(`One ${noun}`, { ...ok(200, 'Found', schemas.item), ...errors(404) }, { requestParams: byId }),
      patch: op(
        `Change a ${noun} (admin)`,
        { ...ok(200, 'Changed', schemas.item), ...errors(400, 403, 404, 409, 415) },
        { requestParams: byId, requestBody: json(schemas.update) },
      ),
      delete: op(
        `Delete a ${noun} (admin)`,
        { ...ok(204, 'Deleted'), ...errors(403, 404, 409) },
        { requestParams: byId },
      ),
    },
  };
}

/** Users, schedules and escalation policies (CONTRACT.md §9). */
export const oncallPaths: Paths = {
  ...collection('/api/v1/users', 'users', 'user', {
    item: User,
    create: CreateUserInput,
    update: UpdateUserInput,
  }),
  ...collection('/api/v1/schedules', 'schedules', 'schedule', {
    item: Schedule,
    create: CreateScheduleInput,
    update: UpdateScheduleInput,
  }),
  '/api/v1/schedules/{id}/on-call': {
    get: op(
      'Who is on call at `at` (default: now)',
      { ...ok(200, 'On call', OnCall), ...errors(400, 404) },
      { requestParams: { ...byId, query: OnCallQuery } },
    ),
  },
  ...collection('/api/v1/escalation-policies', 'escalation_policies', 'escalation policy', {
    item: EscalationPolicy,
    create: CreateEscalationPolicyInput,
    update: UpdateEscalationPolicyInput,
  }),
};
