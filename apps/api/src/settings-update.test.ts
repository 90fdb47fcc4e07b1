// PATCH /api/v1/settings (docs/api.md#settings): the default escalation policy and
// fixed_webhooks_enabled change together or not at all.
import { randomUUID } from 'node:crypto';
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let api: TestClient;
let admin: TestUser;

beforeAll(async () => {
  ({
    runtime,
    api,
    users: { admin },
  } = await startTestApp(createApp, { users: oneUserPerRole }));
});
afterAll(() => runtime.cleanup());

const patch = (body: Record<string, unknown>) =>
  api('PATCH', '/api/v1/settings', { token: admin.token, body });
const current = async () => {
  const view = await bodyOf(await api('GET', '/api/v1/settings', { token: admin.token }));
  return {
    default_escalation_policy_id: view.default_escalation_policy_id,
    fixed_webhooks_enabled: view.fixed_webhooks_enabled,
  };
};

describe('PATCH /api/v1/settings with both fields', () => {
  it('a failure writing the second leaves the first unchanged too', async () => {
    const policy = await bodyOf(
      await api('POST', '/api/v1/escalation-policies', { token: admin.token, body: { name: 'Default' } }),
    );
    // A fault of the database's own making, on the second write only.
    await runtime.sql.unsafe(`
      create function refuse_fixed_paths() returns trigger language plpgsql as $$
      begin raise exception 'refused'; end $$;
      create trigger refuse_fixed_paths before insert or update on settings for each row
        when (new.key = 'fixed_webhooks_enabled') execute function refuse_fixed_paths();`);
    try {
      const res = await patch({ default_escalation_policy_id: policy.id, fixed_webhooks_enabled: false });
      expect(res.status).toBe(500);
      expect(await current()).toEqual({ default_escalation_policy_id: null, fixed_webhooks_enabled: true });
    } finally {
      await runtime.sql.unsafe('drop trigger refuse_fixed_paths on settings');
    }

    const both = await patch({ default_escalation_policy_id: policy.id, fixed_webhooks_enabled: false });
    expect(both.status).toBe(200);
    expect(await current()).toEqual({
      default_escalation_policy_id: policy.id,
      fixed_webhooks_enabled: false,
    });
  });

  it('an unknown policy is 400 at default_escalation_policy_id, and fixed_webhooks_enabled is not written', async () => {
    const before = await current();
    const res = await patch({
      default_escalation_policy_id: randomUUID(),
      fixed_webhooks_enabled: !before.fixed_webhooks_enabled,
    });
    const body = await bodyOf(res);
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'default_escalation_policy_id', message: 'no escalation policy has this id' }],
    });
    expect(await current()).toEqual(before);
  });
});

describe('PATCH /api/v1/settings: what happens around an incident', () => {
  const followup = async () => {
    const view = await bodyOf(await api('GET', '/api/v1/settings', { token: admin.token }));
    return {
      postmortem_auto_draft_min_minutes: view.postmortem_auto_draft_min_minutes,
      chat_timeline_sync: view.chat_timeline_sync,
    };
  };

  it('starts at a draft after every resolution and no chat copy, and keeps null as "never"', async () => {
    expect(await followup()).toEqual({ postmortem_auto_draft_min_minutes: 0, chat_timeline_sync: false });

    expect((await patch({ postmortem_auto_draft_min_minutes: 30, chat_timeline_sync: true })).status).toBe(
      200,
    );
    expect(await followup()).toEqual({ postmortem_auto_draft_min_minutes: 30, chat_timeline_sync: true });

    expect((await patch({ postmortem_auto_draft_min_minutes: null })).status).toBe(200);
    expect(await followup()).toEqual({ postmortem_auto_draft_min_minutes: null, chat_timeline_sync: true });
  });

  it('refuses minutes that are negative, fractional or beyond a week, and writes nothing', async () => {
    const before = await followup();
    for (const minutes of [-1, 2.5, 10_081, '30']) {
      const res = await patch({ postmortem_auto_draft_min_minutes: minutes, chat_timeline_sync: false });
      expect(res.status, `minutes ${minutes}`).toBe(400);
      const body = await bodyOf(res);
      expect(body.error.details[0].path).toBe('postmortem_auto_draft_min_minutes');
    }
    expect(await followup()).toEqual(before);
  });
});
