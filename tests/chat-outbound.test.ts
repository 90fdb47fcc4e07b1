// Outbound chat (docs/integrations/slack.md): channel, card, posts and card updates, against the fake
// chat API on real PostgreSQL and Redis.
import { chat } from '@firebreak/db';
import { addNote, getIncident, getTimeline, recordAlerts, updateIncident } from '@firebreak/services';
import { waitFor } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { incidentChannelName } from '../apps/chat/src/outbound/channel-name';
import {
  actor,
  type ChatHarness,
  chatUser,
  firingAlert,
  PUBLIC_URL,
  startChatHarness,
  texts,
} from './support/chat-outbound';

let h: ChatHarness | undefined;

afterEach(async () => {
  await h?.stop();
  h = undefined;
});

type Block = { type: string; elements?: Array<Record<string, unknown>>; fields?: Array<{ text: string }> };
const blocksOf = (message: { blocks?: unknown[] | undefined }) => (message.blocks ?? []) as Block[];
const actionsOf = (message: { blocks?: unknown[] | undefined }) =>
  blocksOf(message).find((b) => b.type === 'actions')?.elements ?? [];
const fieldsOf = (message: { blocks?: unknown[] | undefined }) =>
  blocksOf(message)
    .flatMap((b) => b.fields ?? [])
    .map((f) => f.text);

describe('opening the channel', () => {
  it('creates inc-<number>-<slug>, sets topic and purpose, and posts the card with its three buttons', async () => {
    h = await startChatHarness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const incident = await h.open('Checkout: payments API 500s!', { commander_id: alice.id });
    const channelId = await h.channelOf(incident.id);

    const channel = h.fake.channel(channelId)!;
    expect(channel.name).toBe(`inc-${incident.number}-checkout-payments-api-500s`);
    expect(channel.topic.value).toContain('Checkout: payments API 500s!');
    expect(channel.topic.value).toContain('Critical');
    expect(channel.topic.value).toContain('Alice');
    expect(channel.purpose.value).toContain(`${PUBLIC_URL}/incidents/${incident.number}`);

    const [card, ...rest] = h.fake.messages(channelId);
    expect(rest).toEqual([]);
    expect(card!.text).toBe(`INC-${incident.number} [CRITICAL] Checkout: payments API 500s! — Triggered`);
    expect(actionsOf(card!).map((b) => [b.action_id, b.value])).toEqual([
      ['incident_acknowledge', incident.id],
      ['incident_lead', incident.id],
      ['incident_escalate', incident.id],
      ['incident_resolve', incident.id],
    ]);
    expect(fieldsOf(card!)).toContain('*Lead:*\n<@U0ALICE01>');
    expect(JSON.stringify(card!.blocks)).toContain(`<${PUBLIC_URL}/incidents/${incident.number}|`);

    const shown = await getIncident(h.runtime.ctx, { id: incident.id });
    expect(shown.chat_channel).toEqual({ id: channelId, name: channel.name });
    const timeline = await getTimeline(h.runtime.ctx, { id: incident.id });
    expect(timeline.find((e) => e.type === 'chat_channel_created')?.data).toEqual({
      channel_id: channelId,
      channel_name: channel.name,
    });
    // The commander named at creation is on the card; it is not posted again as a change.
    await h.idle();
    expect(h.fake.messages(channelId)).toHaveLength(1);
  });

  it('keeps long names within 80 characters and adds -2 when the name is taken', async () => {
    h = await startChatHarness({ startChat: false });
    const title = `Everything is on fire ${'and then some more '.repeat(8)}`;
    const incident = await h.open(title);
    const expected = incidentChannelName(incident.number, title);
    expect(expected.length).toBeLessThanOrEqual(80);
    h.fake.addChannel({ name: expected, creator: 'U0CAROL03', botIsMember: false });
    h.startChat();
    const channelId = await h.channelOf(incident.id);
    const name = h.fake.channel(channelId)!.name;
    expect(name).toBe(incidentChannelName(incident.number, title, 2));
    expect(name.length).toBeLessThanOrEqual(80);
    expect(name.endsWith('-2')).toBe(true);
    expect(h.fake.callsTo('conversations.create').map((c) => c.response?.error ?? 'ok')).toEqual([
      'name_taken',
      'ok',
    ]);
  });

  it('never opens two channels for one incident, even when the job is queued twice', async () => {
    h = await startChatHarness();
    const incident = await h.open('Twice');
    await h.worker.queues.enqueue('chat.open_channel', { incident_id: incident.id });
    await h.worker.queues.enqueue('chat.open_channel', { incident_id: incident.id });
    await h.channelOf(incident.id);
    await h.idle();
    expect(h.fake.callsTo('conversations.create')).toHaveLength(1);
    expect(h.fake.channels()).toHaveLength(1);
  });

  it('posts the alert that opened the incident under the card, with the opening job alone', async () => {
    h = await startChatHarness();
    const result = await recordAlerts(h.runtime.ctx, 'generic', [firingAlert('disk-full-db-1')]);
    const incidentId = result.alerts[0]!.incident_id!;
    const channelId = await h.channelOf(incidentId);
    await waitFor(() => h!.fake.messages(channelId).length === 2, { what: 'the alert under the card' });
    await h.idle();
    expect(texts(h.fake, channelId)[1]).toBe('🔔 Alert linked: *Disk full disk-full-db-1* (critical).');
    const jobs = await h.runtime.sql<{ job_name: string }[]>`
      select job_name from outbox where ordering_key = ${incidentId} order by id`;
    expect(jobs.map((job) => job.job_name)).toEqual(['chat.open_channel']);
    expect(h.fake.messages(channelId)).toHaveLength(2);
  });

  it('does nothing, and lets the queue drain, when chat is off', async () => {
    h = await startChatHarness({ chatOff: true });
    const incident = await h.open('No chat here');
    await addNote(h.runtime.ctx, actor, { id: incident.id }, { text: 'hello?' });
    await h.idle();
    expect(h.fake.calls).toEqual([]);
    expect((await getIncident(h.runtime.ctx, { id: incident.id })).chat_channel).toBeNull();
  });
});

describe('posting the timeline', () => {
  it('posts notes, status, severity and lead changes in order, one a second, and edits the card in place', async () => {
    h = await startChatHarness();
    const bob = await chatUser(h.runtime, 'Bob', 'U0BOB0002');
    const incident = await h.open('Database primary down');
    const channelId = await h.channelOf(incident.id);
    const ref = { id: incident.id };
    await addNote(h.runtime.ctx, actor, ref, { text: 'Looking at <replication> & lag' });
    await updateIncident(h.runtime.ctx, actor, ref, { severity: 'high' });
    await updateIncident(h.runtime.ctx, actor, ref, { commander_id: bob.id });
    await updateIncident(h.runtime.ctx, actor, ref, { status: 'acknowledged' });
    await addNote(h.runtime.ctx, actor, ref, { text: 'Failing over' });
    await waitFor(() => h!.fake.messages(channelId).length === 6, { what: 'five posts', timeoutMs: 20_000 });
    await h.idle();

    expect(texts(h.fake, channelId).slice(1)).toEqual([
      '📝 *tester*: Looking at &lt;replication&gt; &amp; lag',
      'Severity changed from *Critical* to *High* by *tester*.',
      '🧑‍✈️ <@U0BOB0002> is now the incident lead.',
      '👀 *Acknowledged* by *tester*.',
      '📝 *tester*: Failing over',
    ]);
    const times = h.fake.messages(channelId).map((m) => m.postedAt.getTime());
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(990);

    const card = h.fake.messages(channelId)[0]!;
    expect(card.edits.length).toBeGreaterThan(0);
    expect(fieldsOf(card)).toEqual([
      '*Status:*\nAcknowledged',
      '*Severity:*\nHigh',
      '*Lead:*\n<@U0BOB0002>',
      '*Source:*\nManual',
    ]);
    expect(actionsOf(card).map((b) => b.action_id)).toEqual([
      'incident_lead',
      'incident_escalate',
      'incident_resolve',
    ]);
    expect(h.fake.updates.every((u) => u.ts === card.ts)).toBe(true);
    expect(h.fake.channel(channelId)!.topic.value).toMatch(/High · Lead: Bob$/);
    const posts = await h.runtime.sql`select entry_id from chat_posts where incident_id = ${incident.id}`;
    expect(posts).toHaveLength(6);
  });

  it('posts the resolution, then renames: the literal first, then resolved-inc-… and the topic', async () => {
    h = await startChatHarness();
    const incident = await h.open('Disk full on db-3');
    const channelId = await h.channelOf(incident.id);
    const original = h.fake.channel(channelId)!.name;
    await updateIncident(h.runtime.ctx, actor, { id: incident.id }, { status: 'resolved' });
    await waitFor(() => h!.fake.channel(channelId)!.name !== original, { what: 'rename', timeoutMs: 20_000 });
    await h.idle();

    const channel = h.fake.channel(channelId)!;
    expect(channel.name).toBe(`resolved-${original}`);
    expect(channel.topic.value.startsWith(`[RESOLVED] #${original}`)).toBe(true);
    const renames = h.fake.callsTo('conversations.rename');
    expect(renames.map((c) => [c.args.name, c.response?.error ?? 'ok'])).toEqual([
      [`[RESOLVED] #${original}`, 'invalid_name_specials'],
      [`resolved-${original}`, 'ok'],
    ]);
    // The resolution is posted before the rename (docs/api.md#state-machine).
    const resolution = h.fake.calls.findIndex(
      (c) => c.method === 'chat.postMessage' && String(c.args.text).includes('*Resolved*'),
    );
    expect(resolution).toBeGreaterThan(-1);
    expect(resolution).toBeLessThan(h.fake.calls.indexOf(renames[0]!));
    expect((await getIncident(h.runtime.ctx, { id: incident.id })).chat_channel?.name).toBe(channel.name);
    const card = h.fake.messages(channelId)[0]!;
    expect(card.text).toContain('Resolved');
    expect(JSON.stringify(card.blocks)).toContain('[RESOLVED] INC-');
    expect(actionsOf(card)).toEqual([]);
    expect(await h.failures(incident.id)).toEqual([]);
  });

  it('suffixes the resolved name when it is taken', async () => {
    h = await startChatHarness();
    const incident = await h.open('Queue backlog');
    const channelId = await h.channelOf(incident.id);
    const original = h.fake.channel(channelId)!.name;
    h.fake.addChannel({ name: `resolved-${original}`, creator: 'U0CAROL03' });
    await updateIncident(h.runtime.ctx, actor, { id: incident.id }, { status: 'resolved' });
    await waitFor(() => h!.fake.channel(channelId)!.name === `resolved-${original}-2`, {
      what: 'suffixed rename',
      timeoutMs: 20_000,
    });
    // The job records the new name once the chat service has answered: a moment after the fake renamed.
    await waitFor(
      async () =>
        (await chat.findChatIncident(h!.runtime.sql, incident.id, 'slack'))?.chat_channel_name ===
        `resolved-${original}-2`,
      { what: 'the new name recorded' },
    );
  });
});
