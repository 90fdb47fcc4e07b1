import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerApp } from './app';

// The combined server serves every app's routes, so its document must describe all of `/api/v1`.
let runtime: TestRuntime;
let app: ReturnType<typeof createServerApp>;
let doc: { openapi: string; paths: Record<string, Record<string, { parameters?: { name: string }[] }>> };

beforeAll(async () => {
  runtime = await createTestRuntime();
  app = createServerApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config });
  const res = await app.request('/api/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = (await res.json()) as typeof doc;
});
afterAll(() => runtime.cleanup());

/** `GET /api/v1/incidents/{id}` for every operation the document describes. */
function documented(): Set<string> {
  const operations = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) operations.add(`${method.toUpperCase()} ${path}`);
  }
  return operations;
}

describe('GET /api/v1/openapi.json on the combined server', () => {
  it('describes every /api/v1 route the server answers, and nothing it does not', () => {
    // `ALL` and wildcard entries are middleware (guards, limits): only a concrete route answers.
    const served = new Set(
      app.routes
        .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/v1/') && !r.path.includes('*'))
        .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`),
    );
    expect(served.size).toBeGreaterThan(60);
    expect([...served].filter((operation) => !documented().has(operation))).toEqual([]);
    expect([...documented()].filter((operation) => !served.has(operation))).toEqual([]);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? 'valid' : compileErrors(result)).toBe('valid');
  });

  it('includes the AI operations, the webhooks and chat', () => {
    expect([...documented()]).toEqual(
      expect.arrayContaining([
        'POST /api/v1/incidents/{id}/summary',
        'POST /api/v1/incidents/{id}/postmortem',
        'GET /api/v1/incidents/{id}/postmortem',
        'POST /api/v1/handoff-digests',
        'GET /api/v1/handoff-digests/{id}',
        'GET /api/v1/ai-jobs/{id}',
        'POST /api/v1/webhooks/generic',
        'GET /api/v1/webhooks/generic/schema',
        'POST /api/v1/webhooks/metrics-alertmanager',
        'POST /api/v1/webhooks/dashboard-alerting',
        'POST /api/v1/webhooks/cloud-monitor',
        'POST /api/v1/chat/commands',
        'POST /api/v1/chat/actions',
        'POST /api/v1/chat/events',
      ]),
    );
  });

  it('carries the schemas that validate the requests', () => {
    const text = JSON.stringify(doc);
    for (const field of ['rotation_start', 'shift_duration_seconds', 'timeout_seconds', 'slack_user_id']) {
      expect(text).toContain(`"${field}"`);
    }
    const onCall = doc.paths['/api/v1/schedules/{id}/on-call']?.get;
    expect(onCall?.parameters?.map((p) => p.name)).toEqual(['id', 'at']);
    const generic = JSON.stringify(doc.paths['/api/v1/webhooks/generic']?.post);
    expect(generic).toContain('"alerts"');
    expect(generic).toContain('x-service-signature');
  });
});

describe('GET /api/v1/docs', () => {
  it('renders the reference from the document with a script served here, not from a CDN', async () => {
    const res = await app.request('/api/v1/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const page = await res.text();
    expect(page).toContain('/api/v1/openapi.json');
    expect(page).toContain('src="/api/v1/docs/scalar.js"');
    expect(page).not.toMatch(/https?:\/\/cdn\./);

    const script = await app.request('/api/v1/docs/scalar.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});
