// Content types are compared exactly (docs/api.md#requests): the webhooks take `application/json` and
// `+json` types, SNS also `text/plain`, and nothing that merely contains "json" in a parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC, type IngestTestApp, SNS, startIngestTestApp } from './ingest-test-app';

let t: IngestTestApp;
beforeAll(async () => {
  t = await startIngestTestApp();
});
afterAll(() => t.runtime.cleanup());

const post = (path: string, contentType: string) =>
  t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: JSON.stringify({ title: 'Disk full on db-1' }),
  });

describe('webhook content types', () => {
  it('refuse a form or text type that only mentions json in a parameter', async () => {
    for (const type of [
      'application/x-www-form-urlencoded; x=+json',
      'multipart/form-data; boundary=+json',
      'text/plain; x=application/json',
    ]) {
      expect((await post(GENERIC, type)).status, type).toBe(415);
    }
    expect((await post(SNS, 'application/x-www-form-urlencoded; x=+json')).status).toBe(415);
  });

  it('take JSON, with parameters and +json types', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/vnd.example+json']) {
      expect((await post(GENERIC, type)).status, type).not.toBe(415);
    }
    // SNS's own type passes the content-type check (and fails later, as no SNS message).
    expect((await post(SNS, 'text/plain; charset=UTF-8')).status).not.toBe(415);
  });
});

describe('GET /metrics on the ingest gateway', () => {
  it('is not served: the Kubernetes Ingress relies on this 404 to keep /metrics closed', async () => {
    const res = await t.app.request('/metrics');
    expect(res.status).toBe(404);
  });
});
