// POST /api/v1/incidents/{id}/escalate (docs/api.md#manual-escalation): the answer, the timeline entry
// with the operator as actor, and each refusal with its code and no side effect.

import type { TestRuntime, TestUser } from '@firebreak/runtime/testing';
import { runDueEscalations } from '@firebreak/services';
import { bodyOf, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOnCallTestApp } from './oncall-test-app';

let runtime: TestRuntime;
let api: TestClient;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;
let ana: TestUser;
let ben: TestUser;

beforeAll(async () => {
  ({ runtime, api, admin, member, viewer, ana, ben } = await startOnCallTestApp());
});
afterAll(() => runtime.cleanup());

async function useTwoTierPolicy(): Promise<string> {
  const res = await api('POST', '/api/v1/escalation-policies', {
    token: admin.token,
    body: {
      name: `Checkout ${Math.random()}`,
      tiers: [
        { target_type: 'users', user_ids: [ana.id], timeout_seconds: 300 },
        { target_type: 'users', user_ids: [ben.id], timeout_seconds: 300 },
      ],
    },
  });
  const policy = await bodyOf(res);
  await api('PATCH', '/api/v1/settings', {
    token: admin.token,
    body: { default_escalation_policy_id: policy.id },
  });
  return policy.id;
}

async function openIncident(title: string) {
  const res = await api('POST', '/api/v1/incidents', {
    token: member.token,
    body: { title, severity: 'critical' },
  });
  expect(res.status).toBe(201);
  return bodyOf(res);
}

const escalate = (ref: string | number, token = member.token, body: Record<string, unknown> = {}) =>
  api('POST', `/api/v1/incidents/${ref}/escalate`, { token, body });

async function escalationEntries(id: string) {
  const { entries } = await bodyOf(
    await api('GET', `/api/v1/incidents/${id}/timeline`, { token: viewer.token }),
  );
  return entries.filter((e: { type: string }) => e.type === 'escalation_triggered');
}

describe('POST /api/v1/incidents/{id}/escalate', () => {
  it('pages the next tier now, by number or id, with the operator as actor', async () => {
    await useTwoTierPolicy();
    const incident = await openIncident('Checkout down');
    await runDueEscalations(runtime.ctx);
    const res = await escalate(incident.number);
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toMatchObject({ id: incident.id, status: 'triggered', escalated_to_tier: 2 });
    const entries = await escalationEntries(incident.id);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({
      actor: { type: 'user', id: member.id },
      data: { tier: 2, manual: true, targets: [{ id: ben.id, name: 'Ben Brandt' }] },
    });
  });

  it('answers 409 no_next_tier once the last tier was paged, and without a policy', async () => {
    await useTwoTierPolicy();
    const incident = await openIncident('Search slow');
    await runDueEscalations(runtime.ctx);
    expect((await escalate(incident.id)).status).toBe(200);
    const again = await escalate(incident.id);
    expect(again.status).toBe(409);
    expect((await bodyOf(again)).error.code).toBe('no_next_tier');
    expect(await escalationEntries(incident.id)).toHaveLength(2);

    await api('PATCH', '/api/v1/settings', {
      token: admin.token,
      body: { default_escalation_policy_id: null },
    });
    const unpaged = await openIncident('Nobody to page');
    const none = await escalate(unpaged.id);
    expect(none.status).toBe(409);
    expect((await bodyOf(none)).error).toMatchObject({ code: 'no_next_tier' });
  });

  it('answers 409 incident_not_open for a resolved incident, 404 for an unknown one, 403 for a viewer', async () => {
    await useTwoTierPolicy();
    const incident = await openIncident('Queue backlog');
    await runDueEscalations(runtime.ctx);
    await api('PATCH', `/api/v1/incidents/${incident.id}`, {
      token: member.token,
      body: { status: 'resolved' },
    });
    const resolved = await escalate(incident.id);
    expect(resolved.status).toBe(409);
    expect((await bodyOf(resolved)).error.code).toBe('incident_not_open');

    const unknown = await escalate(999_999);
    expect(unknown.status).toBe(404);
    expect((await bodyOf(unknown)).error.code).toBe('not_found');

    const open = await openIncident('Viewer tries');
    await runDueEscalations(runtime.ctx);
    const forbidden = await escalate(open.id, viewer.token);
    expect(forbidden.status).toBe(403);
    expect((await bodyOf(forbidden)).error.code).toBe('forbidden');
    expect(await escalationEntries(open.id)).toHaveLength(1);
    expect(await escalationEntries(incident.id)).toHaveLength(1);
  });

  it('with expected_tier: two requests at once page that tier once; the other answers 409 conflict', async () => {
    await useTwoTierPolicy();
    const incident = await openIncident('Double click');
    await runDueEscalations(runtime.ctx);
    const shown = await bodyOf(await api('GET', `/api/v1/incidents/${incident.id}`, { token: viewer.token }));
    expect(shown.next_tier).toBe(2);
    const answers = await Promise.all([
      escalate(incident.id, member.token, { expected_tier: 2 }),
      escalate(incident.id, member.token, { expected_tier: 2 }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = await bodyOf(answers.find((r) => r.status === 409)!);
    expect(refused.error.code).toBe('conflict');
    expect(refused.error.message).toContain('Tier 2 was already paged');
    expect(await escalationEntries(incident.id)).toHaveLength(2);
    const after = await bodyOf(await api('GET', `/api/v1/incidents/${incident.id}`, { token: viewer.token }));
    expect(after.next_tier).toBeNull();
  });

  it('refuses a malformed expected_tier (400) and a body that is not JSON (415), paging nothing', async () => {
    await useTwoTierPolicy();
    const incident = await openIncident('Bad input');
    await runDueEscalations(runtime.ctx);
    const zero = await escalate(incident.id, member.token, { expected_tier: 0 });
    expect(zero.status).toBe(400);
    expect((await bodyOf(zero)).error).toMatchObject({
      code: 'validation_failed',
      details: [expect.objectContaining({ path: 'expected_tier' })],
    });
    const bare = await api('POST', `/api/v1/incidents/${incident.id}/escalate`, { token: member.token });
    expect(bare.status).toBe(415);
    expect(await escalationEntries(incident.id)).toHaveLength(1);
  });

  it('answers 409 no_reachable_target for an acknowledged incident while chat is off', async () => {
    await useTwoTierPolicy();
    const incident = await openIncident('Help wanted');
    await runDueEscalations(runtime.ctx);
    await api('PATCH', `/api/v1/incidents/${incident.id}`, {
      token: member.token,
      body: { status: 'acknowledged' },
    });
    const res = await escalate(incident.id);
    expect(res.status).toBe(409);
    expect((await bodyOf(res)).error).toMatchObject({ code: 'no_reachable_target' });
    expect(await escalationEntries(incident.id)).toHaveLength(1);
  });
});
