// The Teams bot's messaging endpoint (docs/teams.md#commands): the Bot Connector's token checked on
// every activity, commands typed after the bot's mention, the card's buttons, and replies through the
// Bot Connector; against the fakes of Microsoft's services on a fresh database.
import { randomUUID } from 'node:crypto';
import { users } from '@firebreak/db';
import { startTestApp, type TestRuntime } from '@firebreak/runtime/testing';
import { CreateIncidentInput } from '@firebreak/schema';
import { createIncident, getIncident, getTimeline } from '@firebreak/services';
import { type FakeTeams, startFakeTeams, waitFor } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';

const PUBLIC_URL = 'https://firebreak.example.test';
const BOB_ID = '4c7e1a2b-3d4e-4f5a-8b6c-7d8e9f0a1b2c';

let teams: FakeTeams;
let runtime: TestRuntime;
let app: ReturnType<typeof createApp>;
let channelCount = 0;

beforeAll(async () => {
  teams = await startFakeTeams({
    users: [{ id: BOB_ID, displayName: 'Bob Roe', userPrincipalName: 'bob@example.com' }],
  });
  const started = await startTestApp(createApp, { env: { ...teams.env, PUBLIC_URL } });
  runtime = started.runtime;
  app = started.app;
});
afterAll(async () => {
  await runtime.cleanup();
  await teams.close();
});

/** An incident whose Teams channel is `channelId`, as the outbound side leaves it. */
async function incidentInChannel(title = 'Database primary down') {
  const channelId = `19:channel${++channelCount}${randomUUID().slice(0, 8)}@thread.tacv2`;
  const input = CreateIncidentInput.parse({ title, severity: 'critical' });
  const incident = await createIncident(runtime.ctx, { type: 'user', name: 'tester' }, input);
  await runtime.sql`
    insert into chat_channels (incident_id, platform, channel_id, channel_name)
    values (${incident.id}, 'teams', ${channelId}, ${`inc-${incident.number}`})`;
  // The thread the bot posted the card in: replies go to it.
  const thread = `${channelId};messageid=1700000000000`;
  teams.connector.conversations.set(thread, { id: thread, kind: 'channel', channelId });
  return { incident, channelId, thread };
}

/** A message in a channel's thread (or a 1:1 chat when no channel), from `from`. */
function message(
  text: string | undefined,
  where: { channelId?: string; thread: string },
  from = { id: '29:bob', name: 'Bob Roe', aadObjectId: BOB_ID },
  value?: unknown,
) {
  return {
    type: 'message',
    ...(text === undefined ? {} : { text }),
    ...(value === undefined ? {} : { value }),
    from,
    conversation: { id: where.thread, conversationType: where.channelId ? 'channel' : 'personal' },
    channelData: {
      tenant: { id: teams.tenantId },
      ...(where.channelId ? { channel: { id: where.channelId } } : {}),
    },
  };
}

async function send(activity: Record<string, unknown>, token?: Parameters<FakeTeams['activity']>[1]) {
  const request = teams.activity(activity, token);
  return app.request('/api/v1/chat/teams/messages', {
    method: 'POST',
    body: request.body,
    headers: request.headers,
  });
}

/** The bot's replies in a conversation, as Teams shows them. */
const repliesIn = (conversationId: string) =>
  teams.connector.activitiesIn(conversationId).map((activity) => activity.text);

describe('the Bot Connector token', () => {
  it('refuses an activity without a token, or with one not for this bot, and changes nothing', async () => {
    const { incident, channelId, thread } = await incidentInChannel();
    for (const token of [
      { none: true },
      { claims: { aud: randomUUID() } },
      { claims: { serviceUrl: 'https://evil.example' } },
    ]) {
      const res = await send(message('<at>Firebreak</at> ack', { channelId, thread }), token);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_signature');
    }
    expect((await getIncident(runtime.ctx, { id: incident.id })).status).toBe('triggered');
    expect(runtime.logs.messages()).toContain('invalid_signature');
    expect(repliesIn(thread)).toEqual([]);
  });

  it('ignores activities that are not messages (the bot added to a team)', async () => {
    const res = await send({ type: 'conversationUpdate', conversation: { id: 'x' } });
    expect(res.status).toBe(200);
    expect(runtime.logs.messages()).toContain('teams: activity ignored');
  });
});

describe('commands after the mention', () => {
  it('acknowledges the channel’s incident as the Teams user, matched by e-mail through Graph, and replies in the thread', async () => {
    const bob = await users.insertUser(runtime.sql, {
      email: 'bob@example.com',
      name: 'Bob',
      role: 'member',
    });
    const { incident, channelId, thread } = await incidentInChannel();
    const res = await send(message('<at>Firebreak</at>&nbsp;ack', { channelId, thread }));
    expect(res.status).toBe(200);
    expect(await getIncident(runtime.ctx, { id: incident.id })).toMatchObject({ status: 'acknowledged' });
    const entries = await getTimeline(runtime.ctx, { id: incident.id });
    expect(entries.at(-1)).toMatchObject({ type: 'status_changed', actor: { type: 'chat', id: bob.id } });
    expect((await users.findUserById(runtime.sql, bob.id))?.teams_user_id).toBe(BOB_ID);
    expect(repliesIn(thread)).toEqual([`You acknowledged INC-${incident.number}.`]);
  });

  it('answers status with the state, the lead and the latest entries', async () => {
    const { incident, channelId, thread } = await incidentInChannel('Queue backlog');
    await send(message('<at>Firebreak</at> status', { channelId, thread }));
    const [reply] = repliesIn(thread);
    expect(reply).toContain(`INC-${incident.number}`);
    expect(reply).toContain('Queue backlog');
    expect(reply).toMatch(/Triggered|triggered/);
  });

  it('opens an incident with new <title> from a 1:1 chat, and links it', async () => {
    const thread = `a:${randomUUID()}`;
    teams.connector.conversations.set(thread, { id: thread, kind: 'dm', memberId: BOB_ID });
    await send(message('new Checkout is slow', { thread }));
    const [reply] = repliesIn(thread);
    const number = Number(/INC-(\d+)/.exec(reply ?? '')?.[1]);
    expect(reply).toBe(
      `🚨 [INC-${number}](${PUBLIC_URL}/incidents/${number}) opened by **Bob Roe**: **Checkout is slow** (severity high). Its channel follows in a moment.`,
    );
    expect(await getIncident(runtime.ctx, { number })).toMatchObject({
      title: 'Checkout is slow',
      source: 'chat',
    });
  });

  it('says where ack works when typed outside an incident channel', async () => {
    const thread = `a:${randomUUID()}`;
    teams.connector.conversations.set(thread, { id: thread, kind: 'dm', memberId: BOB_ID });
    await send(message('ack', { thread }));
    expect(repliesIn(thread)[0]).toContain('This channel is not an incident channel.');
  });

  it('refuses someone the directory has no e-mail for, and changes nothing', async () => {
    const { incident, channelId, thread } = await incidentInChannel();
    const stranger = { id: '29:stranger', name: 'Stranger', aadObjectId: randomUUID() };
    await send(message('<at>Firebreak</at> resolve', { channelId, thread }, stranger));
    expect((await getIncident(runtime.ctx, { id: incident.id })).status).toBe('triggered');
    expect(repliesIn(thread)).toHaveLength(1);
    expect(repliesIn(thread)[0]).not.toContain('resolved.');
  });
});

describe('the card’s buttons', () => {
  it('resolves on Resolve, and tells a second click that it is already resolved', async () => {
    const { incident, channelId, thread } = await incidentInChannel();
    const click = () =>
      send(
        message(undefined, { channelId, thread }, undefined, {
          firebreak_action: 'incident_resolve',
          value: incident.id,
        }),
      );
    expect((await click()).status).toBe(200);
    expect((await getIncident(runtime.ctx, { id: incident.id })).status).toBe('resolved');
    expect(repliesIn(thread)).toEqual([]);
    await click();
    await waitFor(() => repliesIn(thread).length === 1, { what: 'the reply to the second click' });
    expect(repliesIn(thread)[0]).toMatch(/already resolved/);
  });
});
