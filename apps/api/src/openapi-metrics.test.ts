import { createTestUser, startTestApp, type TestRuntime } from '@firebreak/runtime/testing';
import { bodyOf, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  ({ runtime, api } = await startTestApp(createApp));
});
afterAll(() => runtime.cleanup());

describe('GET /api/v1/openapi.json', () => {
  it('describes the routes with the schemas that validate them', async () => {
    const res = await api('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = await bodyOf(res);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/incidents', '/api/v1/incidents/{id}', '/api/v1/incidents/{id}/notes']),
    );
    const create = doc.paths['/api/v1/incidents'].post.requestBody.content['application/json'].schema;
    const text = JSON.stringify(create);
    expect(text).toContain('"critical"');
    expect(text).toContain('"title"');
    const list = doc.paths['/api/v1/incidents'].get.parameters.map((p: { name: string }) => p.name);
    expect(list).toEqual(expect.arrayContaining(['status', 'severity', 'limit', 'cursor']));
  });
});

describe('GET /metrics', () => {
  it('counts requests by route and incidents by source, in Prometheus text', async () => {
    const member = await createTestUser(runtime, 'member');
    for (let i = 0; i < 3; i++) {
      await api('POST', '/api/v1/incidents', {
        token: member.token,
        body: { title: `m${i}`, severity: 'low' },
      });
    }
    const res = await api('GET', '/metrics');
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('firebreak_incidents_created_total{source="manual"} 3');
    expect(text).toMatch(
      /firebreak_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/incidents",status="201"\} 3/,
    );
    expect(text).toContain('firebreak_process_resident_memory_bytes');
  });
});
