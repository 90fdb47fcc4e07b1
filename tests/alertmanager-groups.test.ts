// Alertmanager groups (docs/api.md#routing-rules): the alerts of one Alertmanager group make ONE incident
// by default, later notifications of the group join it, a rule may split groups, and a rule's own
// group_by wins. Storm mode is off here, so only grouping decides how many incidents open.
import { bodyOf, type JsonBody } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server-app';

const AM = '/api/v1/webhooks/metrics-alertmanager';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  const off = await s.api('PATCH', '/api/v1/settings', {
    token: s.admin.token,
    body: { storm_mode_enabled: false },
  });
  expect(off.status).toBe(200);
});
afterAll(() => s.runtime.cleanup());

/** An Alertmanager notification of group `groupKey` with one alert per instance. */
function notification(groupKey: string, instances: string[], labels: Record<string, string> = {}): JsonBody {
  return {
    receiver: 'firebreak',
    status: 'firing',
    groupKey,
    groupLabels: { alertname: 'InstanceDown' },
    commonLabels: { alertname: 'InstanceDown', severity: 'critical' },
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example.com:9093',
    version: '4',
    alerts: instances.map((instance) => ({
      status: 'firing',
      labels: { alertname: 'InstanceDown', severity: 'critical', instance, ...labels },
      annotations: { summary: `${instance} is down` },
      startsAt: '2026-05-04T09:12:31.512Z',
      endsAt: '0001-01-01T00:00:00Z',
      fingerprint: `${groupKey}-${instance}`.replace(/[^a-z0-9]/gi, '').slice(-32),
    })),
  };
}

const post = async (body: JsonBody) => {
  const res = await s.webhook(AM, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const incidentIdsOf = (answer: JsonBody): string[] => [
  ...new Set<string>(answer.alerts.map((alert: JsonBody) => alert.incident_id)),
];
const linkedAlerts = async (incidentId: string) =>
  (await s.get(`/api/v1/incidents/${incidentId}/alerts`)).alerts as JsonBody[];
const timelineTypes = async (incidentId: string) =>
  ((await s.get(`/api/v1/incidents/${incidentId}/timeline`)).entries as JsonBody[]).map((e) => e.type);

let rulePriority = 0;
async function createRule(actions: JsonBody, labels: Record<string, string>) {
  const res = await s.api('POST', '/api/v1/routing-rules', {
    token: s.admin.token,
    body: { name: `rule ${++rulePriority}`, priority: rulePriority, match_criteria: { labels }, actions },
  });
  expect(res.status).toBe(201);
  return bodyOf(res);
}

describe('an Alertmanager group', () => {
  const groupKey = '{}/{team="web"}:{alertname="InstanceDown"}';
  let incidentId: string;

  it('opens one incident for a notification of 5 alerts, with all 5 linked', async () => {
    const answer = await post(notification(groupKey, ['w1', 'w2', 'w3', 'w4', 'w5']));
    expect(answer).toMatchObject({ created: 5, incidents_created: 1 });
    const ids = incidentIdsOf(answer);
    expect(ids).toHaveLength(1);
    incidentId = ids[0]!;
    const alerts = await linkedAlerts(incidentId);
    expect(alerts.map((a) => a.title).sort()).toEqual(
      ['w1', 'w2', 'w3', 'w4', 'w5'].map((i) => `${i} is down`),
    );
    // The readable group key stays on each alert.
    for (const alert of alerts) expect(alert.annotations.group_key).toBe(groupKey);
    expect((await s.get(`/api/v1/incidents/${incidentId}`)).alert_count).toBe(5);
    expect((await timelineTypes(incidentId)).filter((t) => t === 'alert_linked')).toHaveLength(5);
  });

  it('takes the alerts of a later notification of the same group while it is open', async () => {
    const answer = await post(notification(groupKey, ['w6', 'w7']));
    expect(answer).toMatchObject({ created: 2, incidents_created: 0 });
    expect(incidentIdsOf(answer)).toEqual([incidentId]);
    expect(await linkedAlerts(incidentId)).toHaveLength(7);
  });

  it('stores a bounded key, however long the groupKey', async () => {
    const long = `{}/{team="web"}:{${'instance="x", '.repeat(400)}}`;
    const answer = await post(notification(long, ['l1', 'l2']));
    expect(incidentIdsOf(answer)).toHaveLength(1);
    const [row] = await s.runtime.sql<{ group_key: string }[]>`
      select group_key from incidents where id = ${incidentIdsOf(answer)[0]!}`;
    expect(row!.group_key).toMatch(/^sender:[0-9a-f]{64}$/);
  });

  it('opens a second incident for a different groupKey', async () => {
    const answer = await post(notification('{}/{team="db"}:{alertname="InstanceDown"}', ['d1', 'd2']));
    expect(answer).toMatchObject({ incidents_created: 1 });
    expect(incidentIdsOf(answer)).toHaveLength(1);
    expect(incidentIdsOf(answer)[0]).not.toBe(incidentId);
  });

  it('opens a new incident for the group once its incident is resolved', async () => {
    const resolved = await s.api('PATCH', `/api/v1/incidents/${incidentId}`, {
      token: s.admin.token,
      body: { status: 'resolved' },
    });
    expect(resolved.status).toBe(200);
    const answer = await post(notification(groupKey, ['w8']));
    expect(answer).toMatchObject({ incidents_created: 1 });
    expect(incidentIdsOf(answer)[0]).not.toBe(incidentId);
  });
});

describe('the same groupKey from two clusters', () => {
  // Clusters deployed from one configuration send identical groupKeys: route and group labels only.
  const groupKey = '{}:{namespace="kube-system"}';

  async function keyedIntake(name: string): Promise<string> {
    const res = await s.api('POST', '/api/v1/integrations', {
      token: s.admin.token,
      body: { name, type: 'alertmanager' },
    });
    expect(res.status).toBe(201);
    return new URL((await bodyOf(res)).intake_url).pathname;
  }
  const postTo = async (path: string, body: JsonBody) => {
    const res = await s.webhook(path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it('makes one incident per integration, and each cluster’s later alerts join its own', async () => {
    const [east, west] = [await keyedIntake('cluster east'), await keyedIntake('cluster west')];
    const first = await postTo(east, notification(groupKey, ['e1', 'e2']));
    const second = await postTo(west, notification(groupKey, ['w1', 'w2']));
    expect(first).toMatchObject({ incidents_created: 1 });
    expect(second).toMatchObject({ incidents_created: 1 });
    const [eastIncident] = incidentIdsOf(first);
    const [westIncident] = incidentIdsOf(second);
    expect(westIncident).not.toBe(eastIncident);
    // The group still holds within each integration.
    const later = await postTo(west, notification(groupKey, ['w3']));
    expect(later).toMatchObject({ incidents_created: 0 });
    expect(incidentIdsOf(later)).toEqual([westIncident]);
    expect((await linkedAlerts(westIncident!)).map((a) => a.labels.instance).sort()).toEqual([
      'w1',
      'w2',
      'w3',
    ]);
    expect((await linkedAlerts(eastIncident!)).map((a) => a.labels.instance).sort()).toEqual(['e1', 'e2']);
  });
});

describe('routing rules and sender groups', () => {
  it('split_sender_groups: one incident per alert, as before', async () => {
    await createRule({ create_incident: true, split_sender_groups: true }, { split: 'yes' });
    const answer = await post(
      notification('{}/{split="yes"}:{}', ['s1', 's2', 's3', 's4', 's5'], { split: 'yes' }),
    );
    expect(answer).toMatchObject({ created: 5, incidents_created: 5 });
    expect(incidentIdsOf(answer)).toHaveLength(5);
  });

  it('a rule’s group_by wins over the groupKey', async () => {
    await createRule({ create_incident: true, group_by: ['zone'] }, { byzone: 'yes' });
    const alerts = notification('{}/{byzone="yes"}:{}', ['z1', 'z2', 'z3', 'z4'], { byzone: 'yes' });
    alerts.alerts.forEach((alert: JsonBody, i: number) => {
      alert.labels.zone = i < 2 ? 'a' : 'b';
    });
    const answer = await post(alerts);
    expect(answer).toMatchObject({ incidents_created: 2 });
    const ids = answer.alerts.map((alert: JsonBody) => alert.incident_id);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).toBe(ids[3]);
    expect(ids[0]).not.toBe(ids[2]);
  });

  it('validates split_sender_groups like the other grouping actions', async () => {
    const res = await s.api('POST', '/api/v1/routing-rules', {
      token: s.admin.token,
      body: { name: 'bad', priority: 1, actions: { suppress: true, split_sender_groups: true } },
    });
    expect(res.status).toBe(400);
    expect((await bodyOf(res)).error.details).toEqual([
      { path: 'actions.split_sender_groups', message: 'split_sender_groups needs create_incident: true' },
    ]);
    const typo = await s.api('POST', '/api/v1/routing-rules', {
      token: s.admin.token,
      body: { name: 'bad', priority: 1, actions: { create_incident: true, split_sender_groups: 'yes' } },
    });
    expect(typo.status).toBe(400);
  });
});
