// Outbound chat on Microsoft Teams (docs/teams.md): the channel per incident through Graph, the card as
// an Adaptive Card updated in place, the timeline in the card's thread, the rename on resolution, pages
// by 1:1 conversation, failures; and both platforms at once. Against the fakes of Microsoft's services
// on real PostgreSQL and Redis.
import { getIncident, updateIncident } from '@firebreak/services';
import { deleteRedisKeys, waitFor } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatWorker } from '../apps/chat/src/outbound/worker';
import { actor, defaultPolicyPaging, PUBLIC_URL } from './support/chat-outbound';
import { adaptiveCardOf, startTeamsHarness, type TeamsHarness, teamsUser } from './support/teams';

let h: TeamsHarness | undefined;

afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const CARD_BUTTONS = ['Acknowledge', 'Make me Lead', 'Escalate', 'Resolve', 'Open in Firebreak'];

describe('an incident on Teams', () => {
  it('opens a standard channel in the team, posts the card as a thread, and describes the channel', async () => {
    h = await startTeamsHarness();
    const incident = await h.open('Checkout: payments API 500s!', { description: 'Since 10:02 <b>UTC</b>' });
    const channelId = await h.teamsChannelOf(incident.id);
    const cardId = await h.teamsCardOf(incident.id);

    const channel = h.teams.graph.channels.get(channelId)!;
    expect(channel).toMatchObject({
      teamId: h.teams.teamId,
      membershipType: 'standard',
      displayName: `inc-${incident.number}-checkout-payments-api-500s`,
    });
    expect(channel.description).toBe(
      `INC-${incident.number}: Checkout: payments API 500s! · Critical · Lead: unassigned`,
    );

    const [root, ...others] = h.teams.connector.activitiesIn(`${channelId};messageid=${cardId}`);
    expect(others).toEqual([]);
    expect(root!.id).toBe(cardId);
    const card = adaptiveCardOf(root);
    expect(card.actions.map((a) => a.title)).toEqual(CARD_BUTTONS);
    expect(card.actions.slice(0, 4).map((a) => a.data)).toEqual([
      { firebreak_action: 'incident_acknowledge', value: incident.id },
      { firebreak_action: 'incident_lead', value: incident.id },
      { firebreak_action: 'incident_escalate', value: incident.id },
      { firebreak_action: 'incident_resolve', value: incident.id },
    ]);
    expect(card.actions[4]).toMatchObject({ url: `${PUBLIC_URL}/incidents/${incident.number}` });
    // The description is shown as text: its markup is escaped, not rendered.
    expect(JSON.stringify(card.body)).toContain('Since 10:02 &lt;b&gt;UTC&lt;/b&gt;');

    const shown = await getIncident(h.runtime.ctx, { id: incident.id });
    expect(shown.chat_channels).toEqual([{ platform: 'teams', id: channelId, name: channel.displayName }]);
    expect(shown.chat_channel).toEqual({ id: channelId, name: channel.displayName });
    // Graph, the Bot Connector and the token endpoint were each asked with the bot's own credentials.
    expect(h.teams.tokens.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  it('keeps the name within 39 characters, so that the resolved name fits Teams’ 50', async () => {
    h = await startTeamsHarness();
    const incident = await h.open(
      'A very long title about the primary database of the EU region losing its replicas',
    );
    const channelId = await h.teamsChannelOf(incident.id);
    const name = h.teams.graph.channels.get(channelId)!.displayName;
    expect(name.length).toBeLessThanOrEqual(39);
    expect(name.startsWith(`inc-${incident.number}-a-very-long-title`)).toBe(true);
  });

  it('posts the timeline as replies in the card’s thread and updates the card in place', async () => {
    h = await startTeamsHarness();
    const incident = await h.open('Queue backlog');
    const channelId = await h.teamsChannelOf(incident.id);
    const cardId = await h.teamsCardOf(incident.id);
    await updateIncident(h.runtime.ctx, actor, { id: incident.id }, { status: 'acknowledged' });
    await waitFor(() => h!.threadReplies(channelId, cardId).length === 1, { what: 'the acknowledgement' });
    await h.idle();

    expect(h.threadReplies(channelId, cardId).map((a) => a.text)).toEqual([
      '👀 **Acknowledged** by **tester**.',
    ]);
    const root = h.teams.connector.activities.get(cardId)!;
    expect(root.versions).toHaveLength(2);
    const updated = adaptiveCardOf(root);
    expect(updated.actions.map((a) => a.title)).toEqual(CARD_BUTTONS.filter((t) => t !== 'Acknowledge'));
    expect(JSON.stringify(updated.body)).toContain('"value":"Acknowledged"');
  });

  it('posts the resolution, then renames the channel with the literal [RESOLVED] prefix', async () => {
    h = await startTeamsHarness();
    const incident = await h.open('Disk full');
    const channelId = await h.teamsChannelOf(incident.id);
    const cardId = await h.teamsCardOf(incident.id);
    const original = h.teams.graph.channels.get(channelId)!.displayName;
    await updateIncident(h.runtime.ctx, actor, { id: incident.id }, { status: 'resolved' });
    await waitFor(() => h!.teams.graph.channels.get(channelId)!.displayName !== original, {
      what: 'the rename',
    });
    await h.idle();

    expect(h.teams.graph.channels.get(channelId)!.names).toEqual([original, `[RESOLVED] ${original}`]);
    expect(h.threadReplies(channelId, cardId).map((a) => a.text)).toEqual([
      expect.stringMatching(/^✅ \*\*Resolved\*\* by \*\*tester\*\*\. Time to resolve: /),
    ]);
    expect(adaptiveCardOf(h.teams.connector.activities.get(cardId)).actions.map((a) => a.title)).toEqual([
      'Open in Firebreak',
    ]);
    const shown = await getIncident(h.runtime.ctx, { id: incident.id });
    expect(shown.chat_channels).toEqual([
      { platform: 'teams', id: channelId, name: `[RESOLVED] ${original}` },
    ]);
  });

  it('suffixes a name already taken in the team', async () => {
    h = await startTeamsHarness({ startChat: false });
    const incident = await h.open('Taken');
    const taken = `inc-${incident.number}-taken`;
    h.teams.graph.channels.set('19:existing@thread.tacv2', {
      id: '19:existing@thread.tacv2',
      teamId: h.teams.teamId,
      displayName: taken.toUpperCase(),
      description: null,
      membershipType: 'standard',
      members: [],
      names: [taken.toUpperCase()],
    });
    h.startChat();
    const channelId = await h.teamsChannelOf(incident.id);
    expect(h.teams.graph.channels.get(channelId)!.displayName).toBe(`${taken}-2`);
  });
});

describe('pages on Teams', () => {
  it('sends each target with a Teams id a 1:1 message with their acknowledge link, once', async () => {
    h = await startTeamsHarness();
    const alice = await teamsUser(h.runtime, 'Alice');
    const bob = await teamsUser(h.runtime, 'Bob');
    await defaultPolicyPaging(h.runtime, [alice.id, bob.id]);
    const incident = await h.open('Pager test');
    const channelId = await h.teamsChannelOf(incident.id);
    const cardId = await h.teamsCardOf(incident.id);
    await waitFor(() => h!.threadReplies(channelId, cardId).length === 1, { what: 'the escalation post' });
    await h.idle();

    const dms = [...h.teams.connector.conversations.values()].filter((c) => c.kind === 'dm');
    expect(dms.map((c) => c.memberId).sort()).toEqual([alice.teams_user_id, bob.teams_user_id].sort());
    for (const dm of dms) {
      const messages = h.teams.connector.activitiesIn(dm.id);
      expect(messages).toHaveLength(1);
      expect(messages[0]!.text).toMatch(
        new RegExp(
          `^🚨 You are being paged for \\*\\*INC-${incident.number}: Pager test\\*\\* \\(Critical\\)\\. ` +
            `\\[Open in Firebreak\\]\\(${PUBLIC_URL}/incidents/${incident.number}\\) · \\[Acknowledge\\]\\(${PUBLIC_URL}/api/v1/page/[^)]+\\)$`,
        ),
      );
    }
    expect(h.threadReplies(channelId, cardId)[0]!.text).toMatch(
      /^🚨 \*\*Escalation\*\* \(tier 1 of _Page .+_\): paging \*\*Alice\*\*, \*\*Bob\*\*\.$/,
    );
    const rows = await h.runtime.sql`
      select platform, chat_user_id from chat_direct_messages order by chat_user_id`;
    expect(rows).toEqual(
      [alice, bob]
        .map((u) => ({ platform: 'teams', chat_user_id: u.teams_user_id }))
        .sort((a, b) => (a.chat_user_id! < b.chat_user_id! ? -1 : 1)),
    );
  });

  it('records a person Teams cannot reach, logs it once, and still pages the others', async () => {
    const reachable = '6b1f3e2a-0c4d-4e5f-8a9b-1c2d3e4f5a6b';
    h = await startTeamsHarness({ fakes: { knownUsers: [reachable] } });
    const alice = await teamsUser(h.runtime, 'Alice', reachable);
    const gone = await teamsUser(h.runtime, 'Gone');
    await defaultPolicyPaging(h.runtime, [alice.id, gone.id]);
    const incident = await h.open('Partly reachable');
    await h.teamsCardOf(incident.id);
    await waitFor(async () => (await h!.failures(incident.id)).length === 1, { what: 'the refusal' });
    await h.idle();

    expect(await h.failures(incident.id)).toEqual([
      { operation: 'direct_message', code: 'NotFound', platform: 'teams' },
    ]);
    expect(
      h.runtime.logs.messages().filter((m) => m === 'teams: post message failed: NotFound'),
    ).toHaveLength(1);
    const dm = [...h.teams.connector.conversations.values()].find((c) => c.memberId === reachable)!;
    expect(h.teams.connector.activitiesIn(dm.id)).toHaveLength(1);
  });
});

describe('Slack and Teams at once', () => {
  it('gives the incident a channel on each, each hearing the timeline once, and pages on both', async () => {
    h = await startTeamsHarness({ slack: true });
    const alice = await teamsUser(h.runtime, 'Alice', undefined, 'U0ALICE01');
    await defaultPolicyPaging(h.runtime, [alice.id]);
    const incident = await h.open('Both platforms');
    const slackChannel = await h.channelOf(incident.id);
    const teamsChannel = await h.teamsChannelOf(incident.id);
    const cardId = await h.teamsCardOf(incident.id);
    // The pages go before the incident is taken (a page after it would be skipped).
    await waitFor(
      () => h!.threadReplies(teamsChannel, cardId).length === 1 && h!.fake.dms('U0ALICE01').length === 1,
      {
        what: 'the pages',
      },
    );
    await updateIncident(h.runtime.ctx, actor, { id: incident.id }, { status: 'acknowledged' });
    await waitFor(() => h!.threadReplies(teamsChannel, cardId).length === 2, { what: 'Teams posts' });
    await h.idle();

    // Slack: the escalation mention and the acknowledgement after the card; Teams: the same two replies.
    expect(h.fake.messages(slackChannel)).toHaveLength(3);
    expect(h.threadReplies(teamsChannel, cardId).map((a) => a.text)).toEqual([
      expect.stringContaining('**Escalation**'),
      '👀 **Acknowledged** by **tester**.',
    ]);
    expect(h.fake.dms('U0ALICE01')).toHaveLength(1);
    const teamsDm = [...h.teams.connector.conversations.values()].find(
      (c) => c.memberId === alice.teams_user_id,
    );
    expect(h.teams.connector.activitiesIn(teamsDm!.id)).toHaveLength(1);

    const shown = await getIncident(h.runtime.ctx, { id: incident.id });
    expect(shown.chat_channels.map((c) => c.platform)).toEqual(['slack', 'teams']);
    expect(shown.chat_channel?.id).toBe(slackChannel);
  });

  it('keeps Slack going while Teams refuses, and records the refusal as Teams’', async () => {
    h = await startTeamsHarness({ slack: true });
    h.teams.tokens.options.appPassword = 'rotated elsewhere';
    const incident = await h.open('Teams credentials wrong');
    const slackChannel = await h.channelOf(incident.id);
    await waitFor(async () => (await h!.failures(incident.id)).length === 1, { what: 'the Teams refusal' });
    await h.idle();

    expect(await h.failures(incident.id)).toEqual([
      { operation: 'create_channel', code: 'invalid_client', platform: 'teams' },
    ]);
    expect(h.runtime.logs.messages()).toContain('teams: channel creation failed: invalid_client');
    expect(h.fake.messages(slackChannel)).toHaveLength(1);
    expect(h.teams.graph.channels.size).toBe(0);
  });
});

describe('failures on Teams', () => {
  it('waits out Graph’s 429 and its Retry-After, then opens the channel once', async () => {
    h = await startTeamsHarness({ startChat: false });
    const incident = await h.open('Throttled');
    // Graph's next two calls are answered 429 with Retry-After: 1.
    h.teams.graph.throttle.throttleNext(2, 1);
    h.startChat();
    const channelId = await h.teamsChannelOf(incident.id);
    await h.idle();
    expect(h.teams.graph.requests.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(h.teams.graph.channelsOf()).toHaveLength(1);
    expect(h.teams.graph.channels.get(channelId)).toBeDefined();
    expect(await h.failures(incident.id)).toEqual([]);
  });
});

describe('Teams work lost with Redis', () => {
  it('is recovered from PostgreSQL: the channel, card, page and rename, each once', async () => {
    h = await startTeamsHarness({ startChat: false });
    const alice = await teamsUser(h.runtime, 'Alice');
    await defaultPolicyPaging(h.runtime, [alice.id]);
    const incident = await h.open('Lost with Redis');
    await waitFor(
      async () => {
        await h!.worker.tick();
        const [row] = await h!.runtime.sql<{ n: number }[]>`
          select count(*)::int as n from outbox where sent_at is null`;
        return row!.n === 0;
      },
      { what: 'the outbox relayed' },
    );
    // The jobs were in Redis only; Redis comes back empty.
    await deleteRedisKeys(h.runtime.ctx.redisPrefix);
    const recovering = startChatWorker(h.runtime.ctx, {
      redis: h.runtime.redisConfig,
      chat: h.runtime.config.chat,
      teams: h.runtime.config.teams,
      publicUrl: PUBLIC_URL,
      recovery: { graceMs: 0, intervalMs: 60 * 60 * 1000 },
    });
    try {
      await recovering.recoverLostWork();
      const channelId = await h.teamsChannelOf(incident.id);
      const dm = await waitFor(
        () => [...h!.teams.connector.conversations.values()].find((c) => c.memberId === alice.teams_user_id),
        { what: 'the page' },
      );
      await updateIncident(h.runtime.ctx, actor, { id: incident.id }, { status: 'resolved' });
      await waitFor(
        async () => (await h!.runtime.sql`select 1 from outbox where sent_at is null`).length === 0,
        {
          what: 'the resolution relayed',
        },
      );
      await deleteRedisKeys(h.runtime.ctx.redisPrefix);
      await recovering.recoverLostWork();
      await waitFor(() => h!.teams.graph.channels.get(channelId)!.displayName.startsWith('[RESOLVED] '), {
        what: 'the rename',
      });
      await recovering.recoverLostWork();
      await h.idle();
      expect(h.teams.graph.channelsOf()).toHaveLength(1);
      expect(h.teams.connector.activitiesIn(dm.id)).toHaveLength(1);
      expect(h.teams.graph.channels.get(channelId)!.names).toHaveLength(2);
    } finally {
      await recovering.stop();
    }
  });
});
