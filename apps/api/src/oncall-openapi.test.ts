import { describe, expect, it } from 'vitest';
import { createDocument } from 'zod-openapi';
import { oncallPaths } from './openapi/oncall-paths';

describe('the OpenAPI paths of users, schedules and escalation policies', () => {
  const doc = createDocument({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: oncallPaths,
  });

  it('describe every route with the schemas that validate it', () => {
    expect(Object.keys(doc.paths ?? {}).sort()).toEqual([
      '/api/v1/escalation-policies',
      '/api/v1/escalation-policies/{id}',
      '/api/v1/schedules',
      '/api/v1/schedules/{id}',
      '/api/v1/schedules/{id}/on-call',
      '/api/v1/users',
      '/api/v1/users/{id}',
    ]);
    const text = JSON.stringify(doc);
    for (const field of [
      'rotation_start',
      'shift_duration_seconds',
      'user_names',
      'timeout_seconds',
      'slack_user_id',
    ]) {
      expect(text).toContain(`"${field}"`);
    }
    const onCall = doc.paths?.['/api/v1/schedules/{id}/on-call']?.get;
    expect(onCall?.parameters?.map((p) => ('name' in p ? p.name : undefined))).toEqual(['id', 'at']);
  });
});
