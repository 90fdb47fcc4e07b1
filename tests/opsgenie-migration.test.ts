// The one-host change of docs/import-opsgenie.md, across apps: after the import, a sender that kept its
// Opsgenie API key and only changed the host posts to this service's Opsgenie Alert API (`/v2/alerts`,
// served by the ingest routes of the combined server) and its alert lands under the imported integration.
import { createTestRuntime, createTestUser, type TestRuntime } from '@firebreak/runtime/testing';
import type { ImportResult } from '@firebreak/schema';
import { createServerApp } from '@firebreak/server';
import {
  bodyOf,
  type FakeOpsgenieApi,
  opsgenieFixturesDir,
  startFakeOpsgenieApi,
  waitFor,
} from '@firebreak/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

const KEY = 'northwind-migration-key';
const CHECKOUT_KEY = '3f8a2c10-7d4b-4e61-9a35-checkout0001';
let runtime: TestRuntime;
let app: ReturnType<typeof createServerApp>;
let opsgenie: FakeOpsgenieApi;

beforeAll(async () => {
  runtime = await createTestRuntime();
  app = createServerApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config });
  opsgenie = await startFakeOpsgenieApi({ fixturesDir: opsgenieFixturesDir, apiKey: KEY });
});
afterAll(async () => {
  await opsgenie?.close();
  await runtime?.cleanup();
});

const postAlert = (key: string, body: unknown) =>
  app.request('/v2/alerts', {
    method: 'POST',
    headers: { authorization: `GenieKey ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

it('a sender keeps its GenieKey and changes only the host', async () => {
  // Before the import, this service knows no such key.
  expect((await postAlert(CHECKOUT_KEY, { message: 'too early' })).status).toBe(401);

  const admin = await createTestUser(runtime, 'admin');
  const res = await app.request('/api/v1/imports/opsgenie', {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: opsgenie.url, api_key: KEY, dry_run: false }),
  });
  expect(res.status).toBe(200);
  const answer: ImportResult = await bodyOf(res);
  const checkout = answer.integrations.find((i) => i.name === 'Checkout API')!;
  expect(checkout.integration_id).not.toBeNull();

  const sent = await postAlert(CHECKOUT_KEY, {
    message: 'Checkout error rate above 5%',
    alias: 'checkout-5xx',
  });
  expect(sent.status).toBe(202);
  const alert = await waitFor(
    async () =>
      (
        await runtime.sql`select title, integration_id from alerts where integration_id = ${checkout.integration_id}`
      )[0],
    { what: 'the alert of the imported integration' },
  );
  expect(alert).toEqual({ title: 'Checkout error rate above 5%', integration_id: checkout.integration_id });
});
