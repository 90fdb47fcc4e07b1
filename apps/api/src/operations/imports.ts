import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  ImportOnCallInput,
  ImportOpsgenieInput,
  ImportPagerDutyInput,
  ImportResult,
  OnCallImportResult,
} from '@firebreak/schema';

export const importOperations = {
  oncall: defineOperation({
    method: 'post',
    path: '/api/v1/imports/oncall',
    access: 'admin',
    summary: 'Import users, schedules and escalation policies from Grafana OnCall',
    description:
      '`dry_run` writes nothing. The answer holds the new users’ setup tokens, shown this once; 200 for a dry run and a real import alike, since the answer is a report.',
    request: { body: jsonBody(ImportOnCallInput) },
    responses: {
      200: answer('What was (or would be) imported, skipped and approximated', OnCallImportResult),
      ...errorAnswers(400, 403, 409, 415, 503),
    },
  }),
  opsgenie: defineOperation({
    method: 'post',
    path: '/api/v1/imports/opsgenie',
    access: 'admin',
    summary: 'Import users, schedules, escalation policies and API integrations from Opsgenie',
    description:
      '`url` defaults to https://api.opsgenie.com (give https://api.eu.opsgenie.com for an EU account). API integrations are created with their Opsgenie API key, so senders change only the host. `dry_run` writes nothing; the answer holds the new users’ setup tokens, shown this once.',
    request: { body: jsonBody(ImportOpsgenieInput) },
    responses: {
      200: answer('What was (or would be) imported, skipped and approximated', ImportResult),
      ...errorAnswers(400, 403, 409, 415, 503),
    },
  }),
  pagerduty: defineOperation({
    method: 'post',
    path: '/api/v1/imports/pagerduty',
    access: 'admin',
    summary: 'Import users, schedules, escalation policies and Events API integrations from PagerDuty',
    description:
      '`url` defaults to https://api.pagerduty.com. Events API v2 and v1 integrations are created with their PagerDuty integration key, so senders change only the host (docs/import-pagerduty.md). `dry_run` writes nothing; the answer holds the new users’ setup tokens, shown this once.',
    request: { body: jsonBody(ImportPagerDutyInput) },
    responses: {
      200: answer('What was (or would be) imported, skipped and approximated', ImportResult),
      ...errorAnswers(400, 403, 409, 415, 503),
    },
  }),
};
