import { ImportOnCallInput, OnCallImportResult, SetupPasswordInput, User } from '@firebreak/schema';
import { z } from 'zod';
import { errors, json, ok, op, type Paths } from './helpers';

/** The Grafana OnCall import and the setup-token password route (CONTRACT.md §3, §11). */
export const importPaths: Paths = {
  '/api/v1/imports/oncall': {
    post: op(
      'Import users, schedules and escalation policies from Grafana OnCall (admin); `dry_run` writes nothing',
      {
        ...ok(200, 'What was (or would be) imported, skipped and approximated', OnCallImportResult),
        ...errors(400, 403, 409, 415, 503),
      },
      { requestBody: json(ImportOnCallInput) },
    ),
  },
  '/api/v1/auth/setup': {
    post: {
      summary: 'Set the password of an imported user with their setup token (once, within 7 days)',
      security: [],
      requestBody: json(SetupPasswordInput),
      responses: {
        ...ok(200, 'Password set; log in with it', z.object({ user: User })),
        ...errors(400, 401, 415, 429, 500),
      },
    },
  },
};
