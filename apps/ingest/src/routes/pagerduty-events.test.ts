// PagerDuty's Events API v2 and v1 at PagerDuty's own paths (docs/integrations/pagerduty-opsgenie-apis.md),
// against the ingest app: the documentation's example events, the exact requests Alertmanager's
// pagerduty_configs sends (trigger, then resolve), PagerDuty's answer shapes, dedup, acknowledge and
// resolve, unknown and disabled keys, the body limit, and keys kept out of the logs.
import { randomUUID } from 'node:crypto';
import { CreateIntegrationInput, type Integration } from '@firebreak/schema';
import { createIntegration, listAlerts, updateIntegration } from '@firebreak/services';
import { bodyOf, type JsonBody } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, type IngestTestApp, startIngestTestApp } from './ingest-test-app';
import { PAGERDUTY_V1_PATH, PAGERDUTY_V2_PATH } from './pagerduty-events';

let t: IngestTestApp;
beforeAll(async () => {
  t = await startIngestTestApp();
});
afterAll(() => t?.runtime.cleanup());

const audience = { revealKey: true, baseUrl: 'https://firebreak.example.com' };
async function integration(type: 'pagerduty' | 'opsgenie' = 'pagerduty'): Promise<Integration> {
  const input = CreateIntegrationInput.parse({ name: `PagerDuty ${randomUUID().slice(0, 8)}`, type });
  return createIntegration(t.runtime.ctx, input, audience);
}
const alertsOf = async (integrationId: string): Promise<JsonBody[]> =>
  JSON.parse(JSON.stringify((await listAlerts(t.runtime.ctx, { limit: 1000 })).alerts)).filter(
    (alert: JsonBody) => alert.integration_id === integrationId,
  );

/** As Alertmanager's notifier posts: JSON with a trailing newline (Go's encoder), its own user agent. */
function send(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    t.app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Alertmanager/0.28.1', ...headers },
      body: typeof body === 'string' ? body : `${JSON.stringify(body)}\n`,
    }),
  );
}
const event = (name: string, key: string, changes: Record<string, unknown> = {}) => {
  const body = fixture(name);
  if ('routing_key' in body) body.routing_key = key;
  if ('service_key' in body) body.service_key = key;
  return { ...body, ...changes };
};
async function expectStatus(res: Response, status: number): Promise<JsonBody> {
  const body = await bodyOf(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body;
}

describe('POST /v2/enqueue', () => {
  it('records the documentation’s example event and answers as PagerDuty does', async () => {
    const pd = await integration();
    const answer = await expectStatus(
      await send(PAGERDUTY_V2_PATH, event('pagerduty-v2-trigger', pd.key)),
      202,
    );
    expect(answer).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'srv01/mysql' });
    const [alert, ...rest] = await alertsOf(pd.id);
    expect(rest).toEqual([]);
    expect(alert).toMatchObject({
      title: 'DISK at 99% on machine prod-datapipe03.example.com',
      severity: 'critical',
      status: 'firing',
      external_id: 'srv01/mysql',
      source: 'pagerduty',
      labels: {
        component: 'mysql',
        group: 'prod-datapipe',
        class: 'disk',
        source: 'prod-datapipe03.example.com',
      },
      annotations: { 'free space': '1%', client: 'Sample Monitoring Service' },
      started_at: '2015-07-17T08:42:58.315Z',
      integration_id: pd.id,
    });
    expect(alert.incident_id, 'the default rule opens an incident for critical alerts').toEqual(
      expect.any(String),
    );
  });

  it('deduplicates by dedup_key: the same trigger twice is one alert', async () => {
    const pd = await integration();
    const body = event('pagerduty-v2-trigger', pd.key);
    await expectStatus(await send(PAGERDUTY_V2_PATH, body), 202);
    await expectStatus(await send(PAGERDUTY_V2_PATH, body), 202);
    expect(await alertsOf(pd.id)).toHaveLength(1);
  });

  it('makes a dedup_key for a trigger without one and answers it; it then resolves that alert', async () => {
    const pd = await integration();
    const { dedup_key: _, ...body } = event('pagerduty-v2-trigger', pd.key);
    const first = await expectStatus(await send(PAGERDUTY_V2_PATH, body), 202);
    const second = await expectStatus(await send(PAGERDUTY_V2_PATH, body), 202);
    expect(first.dedup_key).toMatch(/^[0-9a-f]{32}$/);
    expect(second.dedup_key).not.toBe(first.dedup_key);
    expect(await alertsOf(pd.id)).toHaveLength(2);
    await expectStatus(
      await send(PAGERDUTY_V2_PATH, {
        routing_key: pd.key,
        event_action: 'resolve',
        dedup_key: first.dedup_key,
      }),
      202,
    );
    const resolved = (await alertsOf(pd.id)).find((alert) => alert.external_id === first.dedup_key);
    expect(resolved.status).toBe('resolved');
  });

  it('acknowledge acknowledges the alert’s incident, as the integration; resolve resolves the alert', async () => {
    const pd = await integration();
    const trigger = event('pagerduty-v2-trigger', pd.key, { dedup_key: 'ack-then-resolve' });
    await expectStatus(await send(PAGERDUTY_V2_PATH, trigger), 202);
    const [alert] = await alertsOf(pd.id);
    const ack = { routing_key: pd.key, event_action: 'acknowledge', dedup_key: 'ack-then-resolve' };
    expect(await expectStatus(await send(PAGERDUTY_V2_PATH, ack), 202)).toMatchObject({
      dedup_key: 'ack-then-resolve',
    });
    expect(await t.incident(alert.incident_id)).toMatchObject({ status: 'acknowledged' });
    const change = (await t.timeline(alert.incident_id)).find((entry) => entry.type === 'status_changed');
    expect(change).toMatchObject({
      actor: { type: 'system', id: pd.id, name: pd.name },
      data: { from: 'triggered', to: 'acknowledged' },
    });
    // A second acknowledge changes nothing (the incident is no longer triggered).
    await expectStatus(await send(PAGERDUTY_V2_PATH, ack), 202);
    expect(
      (await t.timelineTypes(alert.incident_id)).filter((type) => type === 'status_changed'),
    ).toHaveLength(1);

    const resolve = { ...ack, event_action: 'resolve' };
    await expectStatus(await send(PAGERDUTY_V2_PATH, resolve), 202);
    const [after] = await alertsOf(pd.id);
    expect(after).toMatchObject({
      id: alert.id,
      status: 'resolved',
      title: alert.title,
      ended_at: expect.any(String),
    });
    expect(await t.incident(alert.incident_id)).toMatchObject({
      status: 'acknowledged',
      all_alerts_resolved: true,
    });
  });

  it('accepts acknowledge and resolve of a dedup_key it never saw, and changes nothing', async () => {
    const pd = await integration();
    for (const action of ['acknowledge', 'resolve']) {
      const answer = await expectStatus(
        await send(PAGERDUTY_V2_PATH, {
          routing_key: pd.key,
          event_action: action,
          dedup_key: 'never-triggered',
        }),
        202,
      );
      expect(answer).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'never-triggered' });
    }
    expect(await alertsOf(pd.id)).toEqual([]);
  });

  it('acts only on its own integration’s alerts: another key’s resolve of the same dedup_key changes nothing', async () => {
    const mine = await integration();
    const theirs = await integration();
    await expectStatus(await send(PAGERDUTY_V2_PATH, event('pagerduty-v2-trigger', mine.key)), 202);
    await expectStatus(
      await send(PAGERDUTY_V2_PATH, {
        routing_key: theirs.key,
        event_action: 'resolve',
        dedup_key: 'srv01/mysql',
      }),
      202,
    );
    expect((await alertsOf(mine.id))[0].status).toBe('firing');
  });

  it('refuses an invalid event with PagerDuty’s 400, every problem listed, nothing stored', async () => {
    const pd = await integration();
    const bad = event('pagerduty-v2-trigger', pd.key);
    bad.payload = { ...bad.payload, severity: 'fatal', summary: '' };
    const answer = await expectStatus(await send(PAGERDUTY_V2_PATH, bad), 400);
    expect(answer).toEqual({
      status: 'invalid event',
      message: 'Event object is invalid',
      errors: [expect.stringMatching(/^payload\.summary: /), expect.stringMatching(/^payload\.severity: /)],
    });
    const notJson = await expectStatus(await send(PAGERDUTY_V2_PATH, '{"routing_key":'), 400);
    expect(notJson).toEqual({
      status: 'Unrecognized object',
      message: 'Event object format is unrecognized',
      errors: ['JSON parse error'],
    });
    expect(await alertsOf(pd.id)).toEqual([]);
  });

  it('refuses unknown, disabled and non-PagerDuty keys alike, naming the problem and never the key', async () => {
    const disabled = await integration();
    await updateIntegration(t.runtime.ctx, disabled.id, { enabled: false }, audience);
    const opsgenie = await integration('opsgenie');
    const keys = [disabled.key, opsgenie.key, 'e93facc04764012d7bfb002500d5d1a6', 'x'];
    const answers = [];
    for (const key of keys) {
      const res = await send(PAGERDUTY_V2_PATH, event('pagerduty-v2-trigger', key));
      const answer = await expectStatus(res, 400);
      expect(JSON.stringify(answer)).not.toContain(key);
      answers.push(answer);
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size, 'one answer for all').toBe(1);
    expect(answers[0]).toEqual({
      status: 'invalid event',
      message: 'Invalid routing_key',
      errors: ['routing_key does not name an enabled PagerDuty integration.'],
    });
    expect([...(await alertsOf(disabled.id)), ...(await alertsOf(opsgenie.id))]).toEqual([]);
  });

  it('takes bodies up to 1 MiB, as the webhooks do; larger is 413', async () => {
    const pd = await integration();
    const big = event('pagerduty-v2-trigger', pd.key, { dedup_key: 'big' });
    big.payload.custom_details = { blob: 'x'.repeat(600 * 1024) };
    await expectStatus(await send(PAGERDUTY_V2_PATH, big), 202);
    big.payload.custom_details = { blob: 'x'.repeat(1100 * 1024) };
    const res = await send(PAGERDUTY_V2_PATH, big);
    expect(res.status).toBe(413);
  });

  it('Alertmanager’s pagerduty_configs: its trigger opens an incident, its resolve resolves the alert', async () => {
    const pd = await integration();
    const firing = event('alertmanager-pagerduty-v2-trigger', pd.key);
    expect(await expectStatus(await send(PAGERDUTY_V2_PATH, firing), 202)).toEqual({
      status: 'success',
      message: 'Event processed',
      dedup_key: firing.dedup_key,
    });
    const [alert] = await alertsOf(pd.id);
    expect(alert).toMatchObject({ severity: 'critical', status: 'firing', incident_id: expect.any(String) });
    // Alertmanager re-sends the group while it fires: still one alert.
    await expectStatus(await send(PAGERDUTY_V2_PATH, firing), 202);
    await expectStatus(
      await send(PAGERDUTY_V2_PATH, event('alertmanager-pagerduty-v2-resolve', pd.key)),
      202,
    );
    const after = await alertsOf(pd.id);
    expect(after).toEqual([expect.objectContaining({ id: alert.id, status: 'resolved' })]);
    expect(await t.incident(alert.incident_id)).toMatchObject({ all_alerts_resolved: true });
  });

  it('Alertmanager’s resolve with an empty summary still resolves: the payload is read to trigger only', async () => {
    const pd = await integration();
    await expectStatus(
      await send(PAGERDUTY_V2_PATH, event('alertmanager-pagerduty-v2-trigger', pd.key)),
      202,
    );
    const resolve = event('alertmanager-pagerduty-v2-resolve', pd.key);
    resolve.payload = { ...resolve.payload, summary: '' };
    // A 400 here is never retried by Alertmanager: the alert would stay firing.
    await expectStatus(await send(PAGERDUTY_V2_PATH, resolve), 202);
    expect(await alertsOf(pd.id)).toEqual([expect.objectContaining({ status: 'resolved' })]);
  });

  it('never writes a routing key to the logs', async () => {
    const pd = await integration();
    await expectStatus(await send(PAGERDUTY_V2_PATH, event('pagerduty-v2-trigger', pd.key)), 202);
    await expectStatus(await send(PAGERDUTY_V2_PATH, { routing_key: pd.key, event_action: 'nope' }), 400);
    await expectStatus(await send(PAGERDUTY_V1_PATH, event('pagerduty-v1-trigger', pd.key)), 200);
    const logged = JSON.stringify(t.runtime.logs.lines);
    expect(logged).toContain('"route":"/v2/enqueue"');
    expect(logged).not.toContain(pd.key);
  });
});

describe('POST /generic/2010-04-15/create_event.json (Events API v1)', () => {
  it('records the documentation’s example event as critical and answers 200 with the incident_key', async () => {
    const pd = await integration();
    const answer = await expectStatus(
      await send(PAGERDUTY_V1_PATH, event('pagerduty-v1-trigger', pd.key)),
      200,
    );
    expect(answer).toEqual({ status: 'success', message: 'Event processed', incident_key: 'srv01/HTTP' });
    expect(await alertsOf(pd.id)).toEqual([
      expect.objectContaining({
        title: 'FAILURE for production/HTTP on machine srv01.acme.com',
        severity: 'critical',
        external_id: 'srv01/HTTP',
        annotations: expect.objectContaining({ 'ping time': '1500ms', client: 'Sample Monitoring Service' }),
      }),
    ]);
  });

  it('Alertmanager’s v1 events (service_key): trigger, then resolve; errors in v1’s shape', async () => {
    const pd = await integration();
    const firing = event('alertmanager-pagerduty-v1-trigger', pd.key);
    expect(await expectStatus(await send(PAGERDUTY_V1_PATH, firing), 200)).toMatchObject({
      incident_key: firing.incident_key,
    });
    await expectStatus(
      await send(PAGERDUTY_V1_PATH, event('alertmanager-pagerduty-v1-resolve', pd.key)),
      200,
    );
    expect(await alertsOf(pd.id)).toEqual([
      expect.objectContaining({ status: 'resolved', severity: 'critical' }),
    ]);

    const unknown = await expectStatus(
      await send(PAGERDUTY_V1_PATH, event('pagerduty-v1-trigger', 'nobody')),
      400,
    );
    expect(unknown).toEqual({
      status: 'invalid event',
      message: 'Invalid service_key',
      errors: ['service_key does not name an enabled PagerDuty integration.'],
    });
    const invalid = await expectStatus(
      await send(PAGERDUTY_V1_PATH, { service_key: pd.key, event_type: 'trigger' }),
      400,
    );
    expect(invalid).toEqual({
      status: 'invalid event',
      message: 'Event object is invalid',
      errors: ['description: Required to trigger.'],
    });
  });
});
