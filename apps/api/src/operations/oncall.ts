import { answer, defineOperation, errorAnswers } from '@firebreak/http';
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
import { collectionOperations } from './collection';
import { IdParams } from './params';

export const userOperations = collectionOperations('/api/v1/users', 'users', 'user', {
  item: User,
  create: CreateUserInput,
  update: UpdateUserInput,
});

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
};

export const escalationPolicyOperations = collectionOperations(
  '/api/v1/escalation-policies',
  'escalation_policies',
  'escalation policy',
  { item: EscalationPolicy, create: CreateEscalationPolicyInput, update: UpdateEscalationPolicyInput },
);
