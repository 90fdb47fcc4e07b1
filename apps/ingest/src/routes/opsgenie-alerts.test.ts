// Opsgenie's Alert API at Opsgenie's own paths (docs/integrations/pagerduty-opsgenie-apis.md), against the
// ingest app: the documentation's example requests, the exact requests Alertmanager's opsgenie_configs
// sends (create, then close by alias), Opsgenie's answer and error shapes, close, acknowledge and notes
// by id and alias, refused keys and bodies, and keys kept out of the logs.
import { randomUUID } from 'node:crypto';
import { CreateIntegrationInput, type Integration } from '@firebreak/schema';
import { createIntegration, listAlerts, updateIntegration } from '@firebreak/services';
import { bodyOf, type JsonBody } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, type IngestTestApp, startIngestTestApp } from './ingest-test-app';

let t: IngestTestApp;
beforeAll(async () => {
  t = await startIngestTestApp();
});
afterAll(() => t?.runtime.cleanup());

const audience = { revealKey: true, baseUrl: 'https://firebreak.example.com' };
async function integration(type: 'pagerduty' | 'opsgenie' = 'opsgenie'): Promise<Integration> {
  const input = CreateIntegrationInput.parse({ name: `Opsgenie ${randomUUID().slice(0, 8)}`, type });
  return createIntegration(t.runtime.ctx, input, audience);
}
const alertsOf = async (integrationId: string): Promise<JsonBody[]> =>
  JSON.parse(JSON.stringify((await listAlerts(t.runtime.ctx, { limit: 1000 })).alerts)).filter(
    (alert: JsonBody) => alert.integration_id === integrationId,
  );

/** As Opsgenie's clients (and Alertmanager) post: `Authorization: GenieKey <key>`, JSON with a newline. */
function send(path: string, key: string | null, body?: unknown, method = 'POST'): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Alertmanager/0.28.1',
  };
  if (key !== null) headers.authorization = `GenieKey ${key}`;
  return Promise.resolve(
    t.app.request(path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : `${JSON.stringify(body)}\n` }),
    }),
  );
}
async function expectStatus(res: Response, status: number): Promise<JsonBody> {
  const body = await bodyOf(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body;
}
/** Opsgenie's answer: 202 `{result, took, requestId}`, the request id also in `X-Request-Id`. */
async function expectAccepted(res: Response): Promise<void> {
  const body = await expectStatus(res, 202);
  expect(body).toEqual({
    result: 'Request will be processed',
    took: expect.any(Number),
    requestId: expect.any(String),
  });
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
}
/** Opsgenie's error shape. */
const opsgenieError = (message: string, extra: Record<string, unknown> = {}) => ({
  message,
  ...extra,
  took: expect.any(Number),
  requestId: expect.any(String),
});

describe('POST /v2/alerts', () => {
  it('records the documentation’s example request', async () => {
    const og = await integration();
    await expectAccepted(await send('/v2/alerts', og.key, fixture('opsgenie-create-alert')));
    const [alert, ...rest] = await alertsOf(og.id);
    expect(rest).toEqual([]);
    expect(alert).toMatchObject({
      title: 'An example alert message',
      description: 'Every alert needs a description',
      severity: 'critical',
      external_id: 'Life is too short for no alias',
      source: 'opsgenie',
      labels: { OverwriteQuietHours: '', Critical: '', entity: 'An example entity' },
      annotations: { key1: 'value1', priority: 'P1', actions: ['Restart', 'AnExampleAction'] },
      incident_id: expect.any(String),
    });
  });

  it('deduplicates by alias; an alert without alias is a new alert each time', async () => {
    const og = await integration();
    await expectAccepted(await send('/v2/alerts', og.key, { message: 'Same', alias: 'same' }));
    await expectAccepted(await send('/v2/alerts', og.key, { message: 'Same', alias: 'same' }));
    await expectAccepted(await send('/v2/alerts', og.key, { message: 'No alias' }));
    await expectAccepted(await send('/v2/alerts', og.key, { message: 'No alias' }));
    expect((await alertsOf(og.id)).map((alert) => alert.title).sort()).toEqual([
      'No alias',
      'No alias',
      'Same',
    ]);
  });

  it('refuses a missing or malformed GenieKey (422) and a key of no enabled Opsgenie integration (401)', async () => {
    const disabled = await integration();
    await updateIntegration(t.runtime.ctx, disabled.id, { enabled: false }, audience);
    const pagerduty = await integration('pagerduty');
    const body = { message: 'Refused' };
    expect(await expectStatus(await send('/v2/alerts', null, body), 422)).toEqual(
      opsgenieError('Key format is not valid!'),
    );
    const bearer = await t.app.request('/v2/alerts', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${disabled.key}` },
      body: JSON.stringify(body),
    });
    expect(await expectStatus(bearer, 422)).toEqual(opsgenieError('Key format is not valid!'));
    for (const key of [disabled.key, pagerduty.key, randomUUID()]) {
      const answer = await expectStatus(await send('/v2/alerts', key, body), 401);
      expect(answer).toEqual(opsgenieError('Could not authenticate'));
    }
    expect([...(await alertsOf(disabled.id)), ...(await alertsOf(pagerduty.id))]).toEqual([]);
  });

  it('refuses a body without message with Opsgenie’s 422, and one that is not JSON with 400', async () => {
    const og = await integration();
    expect(await expectStatus(await send('/v2/alerts', og.key, { alias: 'no-message' }), 422)).toEqual(
      opsgenieError('Message can not be empty.', { errors: { message: 'Required.' } }),
    );
    expect(await expectStatus(await send('/v2/alerts', og.key, '{"message":'), 400)).toEqual(
      opsgenieError('Invalid JSON body'),
    );
    expect(await alertsOf(og.id)).toEqual([]);
  });
});

describe('POST /v2/alerts/{identifier}/close, /acknowledge, /notes', () => {
  it('Alertmanager’s opsgenie_configs: create, then close by alias, resolve the alert', async () => {
    const og = await integration();
    const create = fixture('alertmanager-opsgenie-create');
    // Alertmanager posts to `<api_url>v2/alerts`, with api_url set to Firebreak's root URL.
    await expectAccepted(await send('/v2/alerts', og.key, create));
    const [alert] = await alertsOf(og.id);
    expect(alert).toMatchObject({
      external_id: create.alias,
      severity: 'critical',
      labels: { team: 'payments', prod: '' },
      status: 'firing',
      incident_id: expect.any(String),
    });
    await expectAccepted(
      await send(
        `/v2/alerts/${create.alias}/close?identifierType=alias`,
        og.key,
        fixture('alertmanager-opsgenie-close'),
      ),
    );
    expect(await alertsOf(og.id)).toEqual([expect.objectContaining({ id: alert.id, status: 'resolved' })]);
    expect(await t.incident(alert.incident_id)).toMatchObject({ all_alerts_resolved: true });
    // Firing again (same alias) is the same alert, firing anew.
    await expectAccepted(await send('/v2/alerts', og.key, create));
    expect(await alertsOf(og.id)).toEqual([expect.objectContaining({ id: alert.id, status: 'firing' })]);
  });

  it('Alertmanager’s update_alerts: PUT message and description by alias update the alert', async () => {
    const og = await integration();
    const create = fixture('alertmanager-opsgenie-create');
    await expectAccepted(await send('/v2/alerts', og.key, create));
    const byAlias = (field: string) => `/v2/alerts/${create.alias}/${field}?identifierType=alias`;
    await expectAccepted(
      await send(byAlias('message'), og.key, { message: '[FIRING:2] HighLatency' }, 'PUT'),
    );
    await expectAccepted(await send(byAlias('description'), og.key, { description: 'Two now' }, 'PUT'));
    expect(await alertsOf(og.id)).toEqual([
      expect.objectContaining({ title: '[FIRING:2] HighLatency', description: 'Two now', status: 'firing' }),
    ]);
    // Alertmanager leaves an empty description out (`{}`): that clears it, never a 422.
    await expectAccepted(await send(byAlias('description'), og.key, {}, 'PUT'));
    expect(await alertsOf(og.id)).toEqual([expect.objectContaining({ description: null })]);
    await expectAccepted(
      await send('/v2/alerts/unknown/message?identifierType=alias', og.key, { message: 'x' }, 'PUT'),
    );
    expect(await expectStatus(await send(byAlias('message'), og.key, {}, 'PUT'), 422)).toEqual(
      opsgenieError('Request body is not processable. Please check the errors.', {
        errors: { message: 'Required.' },
      }),
    );
    expect(await alertsOf(og.id)).toHaveLength(1);
  });

  it('acknowledge by id (the default identifierType) acknowledges the incident, as the integration', async () => {
    const og = await integration();
    await expectAccepted(
      await send('/v2/alerts', og.key, { message: 'Ack me', alias: 'ack-me', priority: 'P2' }),
    );
    const [alert] = await alertsOf(og.id);
    await expectAccepted(
      await send(`/v2/alerts/${alert.id}/acknowledge`, og.key, fixture('opsgenie-alert-action')),
    );
    expect(await t.incident(alert.incident_id)).toMatchObject({ status: 'acknowledged' });
    const change = (await t.timeline(alert.incident_id)).find((entry) => entry.type === 'status_changed');
    expect(change).toMatchObject({ actor: { type: 'system', id: og.id, name: og.name } });
    await expectAccepted(await send(`/v2/alerts/${alert.id}/close?identifierType=id`, og.key, {}));
    expect((await alertsOf(og.id))[0].status).toBe('resolved');
  });

  it('notes go on the incident’s timeline; an unknown alert is 404, one without incident 409', async () => {
    const og = await integration();
    await expectAccepted(
      await send('/v2/alerts', og.key, { message: 'Note me', alias: 'note-me', priority: 'P1' }),
    );
    const [alert] = await alertsOf(og.id);
    await expectAccepted(
      await send('/v2/alerts/note-me/notes?identifierType=alias', og.key, fixture('opsgenie-alert-action')),
    );
    const note = (await t.timeline(alert.incident_id)).find((entry) => entry.type === 'message');
    expect(note).toMatchObject({
      actor: { type: 'system', id: og.id, name: og.name },
      data: { text: 'Monitoring Script: Action executed via Alert API' },
    });

    expect(
      await expectStatus(
        await send('/v2/alerts/nobody/notes?identifierType=alias', og.key, { note: 'x' }),
        404,
      ),
    ).toEqual(opsgenieError('Alert does not exist'));
    // P5 is information: the default routing rule opens no incident for it.
    await expectAccepted(
      await send('/v2/alerts', og.key, { message: 'Quiet', alias: 'quiet', priority: 'P5' }),
    );
    const quiet = await expectStatus(
      await send('/v2/alerts/quiet/notes?identifierType=alias', og.key, { note: 'x' }),
      409,
    );
    expect(quiet).toEqual(opsgenieError(expect.stringContaining('no incident')));
    expect(
      await expectStatus(await send('/v2/alerts/note-me/notes?identifierType=alias', og.key, {}), 422),
    ).toEqual(opsgenieError('Note can not be empty.', { errors: { note: 'Required.' } }));
  });

  it('accepts close and acknowledge of an alert it never created, and changes nothing', async () => {
    const og = await integration();
    await expectAccepted(await send('/v2/alerts', og.key, { message: 'Untouched', alias: 'untouched' }));
    for (const path of [
      '/v2/alerts/other/close?identifierType=alias',
      `/v2/alerts/${randomUUID()}/close`,
      '/v2/alerts/not-a-uuid/acknowledge',
    ]) {
      await expectAccepted(await send(path, og.key, { source: 'test' }));
    }
    expect(await alertsOf(og.id)).toEqual([expect.objectContaining({ status: 'firing' })]);
  });

  it('acts only on its own integration’s alerts, by alias and by id', async () => {
    const mine = await integration();
    const theirs = await integration();
    await expectAccepted(await send('/v2/alerts', mine.key, { message: 'Mine', alias: 'shared-alias' }));
    const [alert] = await alertsOf(mine.id);
    await expectAccepted(await send('/v2/alerts/shared-alias/close?identifierType=alias', theirs.key, {}));
    await expectAccepted(await send(`/v2/alerts/${alert.id}/close`, theirs.key, {}));
    expect((await alertsOf(mine.id))[0].status).toBe('firing');
  });

  it('refuses identifierType=tiny, and an unknown identifierType, with a reason', async () => {
    const og = await integration();
    const tiny = await expectStatus(await send('/v2/alerts/42/close?identifierType=tiny', og.key, {}), 422);
    expect(tiny).toEqual(opsgenieError(expect.stringContaining('tiny')));
    const other = await expectStatus(
      await send('/v2/alerts/42/close?identifierType=number', og.key, {}),
      422,
    );
    expect(other).toEqual(opsgenieError('identifierType must be one of: id, alias, tiny.'));
  });

  it('never writes a GenieKey to the logs', async () => {
    const og = await integration();
    await expectAccepted(await send('/v2/alerts', og.key, { message: 'Logged?', alias: 'logged' }));
    await expectAccepted(await send('/v2/alerts/logged/close?identifierType=alias', og.key, {}));
    await expectStatus(await send('/v2/alerts', og.key, {}), 422);
    const logged = JSON.stringify(t.runtime.logs.lines);
    expect(logged).toContain('"route":"/v2/alerts/:identifier/close"');
    expect(logged).not.toContain(og.key);
  });
});
