import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import { ImportOnCallInput, OnCallImportResult } from '@firebreak/schema';

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
};
