// Outbound chat when the chat service says no, slows us down or is away
// (docs/integrations/slack.md#failures): the exact log lines, one `chat_failed` entry, no endless
// retries, and an incident that is never held back.

import { createChatClient } from '@firebreak/chat-client';
import { addNote, getIncident, recordAlerts } from '@firebreak/services';
import { waitFor } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatCallError } from '../apps/chat/src/outbound/errors';
import { runChatJob } from '../apps/chat/src/outbound/job';
import { openChannel } from '../apps/chat/src/outbound/open-channel';
import {
  actor,
  type ChatHarness,
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

const logged = (message: string) => () => h!.runtime.logs.messages().includes(message);
const note = (incidentId: string, text: string) =>
  addNote(h!.runtime.ctx, actor, { id: incidentId }, { text });

describe('refusals that retrying cannot fix', () => {
  it.each(['invalid_auth', 'token_revoked', 'account_inactive'])(
    'a %s token: logged, one chat_failed, no retries, the incident unaffected',
    async (code) => {
      h = await startChatHarness();
      h.fake.setTokenValid(false, code);
      const incident = await h.open('Token trouble');
      expect(incident.status).toBe('triggered');
      await waitFor(logged(`slack: channel creation failed: ${code}`), { what: 'log line' });
      await note(incident.id, 'anyone?');
      await h.idle();
      expect(await h.failures(incident.id)).toEqual([{ operation: 'create_channel', code }]);
      expect(h.fake.callsTo('conversations.create')).toHaveLength(1);
      // No channel is coming: the note's job finishes without calling the chat service.
      expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
      const line = h.runtime.logs.lines.find((l) => l.msg === `slack: channel creation failed: ${code}`);
      expect(line).toMatchObject({ level: 'error', incident_id: incident.id, code });
      expect((await getIncident(h.runtime.ctx, { id: incident.id })).chat_channel).toBeNull();
    },
  );

  it('missing_scope: the bot may not create channels', async () => {
    h = await startChatHarness();
    h.fake.removeScopes('channels:manage');
    const incident = await h.open('No scope');
    await waitFor(logged('slack: channel creation failed: missing_scope'), { what: 'log line' });
    await h.idle();
    expect(await h.failures(incident.id)).toEqual([{ operation: 'create_channel', code: 'missing_scope' }]);
    expect(h.fake.callsTo('conversations.create')).toHaveLength(1);
  });

  it('channel_not_found: each post is tried once, the timeline says so once', async () => {
    h = await startChatHarness();
    const incident = await h.open('Deleted channel');
    const channelId = await h.channelOf(incident.id);
    h.fake.deleteChannel(channelId);
    await note(incident.id, 'one');
    await note(incident.id, 'two');
    await h.idle();
    expect(h.runtime.logs.messages()).toContain('slack: post message failed: channel_not_found');
    expect(await h.failures(incident.id)).toEqual([{ operation: 'post_message', code: 'channel_not_found' }]);
    expect(h.fake.callsTo('chat.postMessage').map((c) => c.response?.error ?? 'ok')).toEqual([
      'ok', // the card
      'channel_not_found',
      'channel_not_found',
    ]);
  });

  it('a refused card: reported once, and the alert that opened the incident is still posted', async () => {
    h = await startChatHarness();
    // The first message of a new channel is its card.
    h.fake.failNext('chat.postMessage', 'invalid_blocks');
    const result = await recordAlerts(h.runtime.ctx, 'generic', [firingAlert('card-refused')]);
    const incidentId = result.alerts[0]!.incident_id!;
    await waitFor(logged('slack: post message failed: invalid_blocks'), { what: 'log line' });
    await h.idle();
    expect(await h.failures(incidentId)).toEqual([{ operation: 'post_card', code: 'invalid_blocks' }]);
    const channelId = (await getIncident(h.runtime.ctx, { id: incidentId })).chat_channel!.id;
    expect(texts(h.fake, channelId)).toEqual(['🔔 Alert linked: *Disk full card-refused* (critical).']);
    expect(h.fake.callsTo('chat.postMessage').map((c) => c.response?.error ?? 'ok')).toEqual([
      'invalid_blocks',
      'ok',
    ]);
  });

  it('is_archived: logged and recorded, not retried', async () => {
    h = await startChatHarness();
    const incident = await h.open('Archived channel');
    const channelId = await h.channelOf(incident.id);
    h.fake.archiveChannel(channelId);
    await note(incident.id, 'hello');
    await h.idle();
    expect(h.runtime.logs.messages()).toContain('slack: post message failed: is_archived');
    expect(await h.failures(incident.id)).toEqual([{ operation: 'post_message', code: 'is_archived' }]);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(2);
  });
});

describe('removed from the channel', () => {
  it('joins again and posts (not_in_channel)', async () => {
    h = await startChatHarness();
    const incident = await h.open('Kicked bot');
    const channelId = await h.channelOf(incident.id);
    h.fake.removeBotFromChannel(channelId);
    await note(incident.id, 'still here');
    await waitFor(() => texts(h!.fake, channelId).includes('📝 *tester*: still here'), { what: 'post' });
    expect(h.fake.callsTo('conversations.join')).toHaveLength(1);
    expect(h.fake.channel(channelId)!.members.has(h.fake.identity.botUserId)).toBe(true);
    expect(await h.failures(incident.id)).toEqual([]);
  });

  it('reports not_in_channel when it may not join', async () => {
    h = await startChatHarness();
    const incident = await h.open('Kicked bot, no join');
    const channelId = await h.channelOf(incident.id);
    h.fake.removeBotFromChannel(channelId);
    h.fake.removeScopes('channels:join');
    await note(incident.id, 'hello?');
    await waitFor(logged('slack: post message failed: not_in_channel'), { what: 'log line' });
    await h.idle();
    expect(await h.failures(incident.id)).toEqual([{ operation: 'post_message', code: 'not_in_channel' }]);
    const line = h.runtime.logs.lines.find((l) => l.msg === 'slack: post message failed: not_in_channel');
    expect(line?.join_error).toBe('missing_scope');
  });
});

describe('rate limits and outages', () => {
  it('waits out Retry-After on a post, without a failure', async () => {
    h = await startChatHarness();
    const incident = await h.open('Busy channel');
    const channelId = await h.channelOf(incident.id);
    h.fake.rateLimit({ method: 'chat.postMessage', retryAfter: 1 });
    await note(incident.id, 'after the limit');
    await waitFor(() => texts(h!.fake, channelId).length === 2, { what: 'post' });
    const [limited, posted] = h.fake.callsTo('chat.postMessage').slice(1);
    expect(limited?.status).toBe(429);
    expect(posted!.time.getTime() - limited!.time.getTime()).toBeGreaterThanOrEqual(950);
    expect(h.runtime.logs.messages()).toContain('slack: post message failed: ratelimited');
    expect(await h.failures(incident.id)).toEqual([]);
  });

  it('waits out Retry-After on channel creation', async () => {
    h = await startChatHarness();
    h.fake.rateLimit({ method: 'conversations.create', retryAfter: 1 });
    const incident = await h.open('Rate limited create');
    await h.channelOf(incident.id);
    expect(h.fake.callsTo('conversations.create').map((c) => c.status)).toEqual([429, 200]);
  });

  it('adopts a channel whose creation answer was lost instead of making a second one', async () => {
    h = await startChatHarness();
    // conversations.create takes effect, and the answer never arrives (a dropped connection, or the
    // process killed mid-call): the retry gets name_taken for the very name it asked for.
    h.fake.loseAnswers('conversations.create');
    const incident = await h.open('Lost answer');
    const channelId = await h.channelOf(incident.id);
    expect(h.fake.channels().map((c) => c.name)).toEqual([`inc-${incident.number}-lost-answer`]);
    expect(h.fake.channels()[0]!.id).toBe(channelId);
    expect(h.fake.callsTo('conversations.create').map((c) => c.response?.error ?? 'ok')).toEqual([
      'ok',
      'name_taken',
    ]);
    // The card was posted once (it is how the channel was found) and the set-up still happened.
    await h.idle();
    const cards = h.fake.messages(channelId).filter((m) => (m.blocks?.length ?? 0) > 0);
    expect(cards).toHaveLength(1);
    expect(h.fake.channel(channelId)?.topic.value).toContain('Lost answer');
    expect(h.runtime.logs.messages()).toContain('chat: adopted a channel whose creation answer was lost');
  });

  it('retries through dropped connections and 5xx answers', async () => {
    h = await startChatHarness();
    h.fake.outage({ mode: 'close', requests: 1 });
    const incident = await h.open('Flaky network');
    await h.channelOf(incident.id);
    const channelId = (await getIncident(h.runtime.ctx, { id: incident.id })).chat_channel!.id;
    h.fake.outage({ status: 503, requests: 1 });
    await note(incident.id, 'through a 503');
    await waitFor(() => texts(h!.fake, channelId).length === 2, { what: 'post after 503' });
    expect(h.runtime.logs.messages()).toContain('slack: channel creation failed: network_error');
    expect(h.runtime.logs.messages()).toContain('slack: post message failed: http_503');
    expect(await h.failures(incident.id)).toEqual([]);
  });

  it('opens the channel of an incident created while chat was down once chat is back', async () => {
    h = await startChatHarness();
    h.fake.outage();
    const incident = await h.open('During the chat outage');
    expect(incident.status).toBe('triggered');
    await note(incident.id, 'written while chat was down');
    await waitFor(() => h!.fake.calls.filter((c) => c.method === 'conversations.create').length >= 2, {
      what: 'two failed tries',
    });
    expect((await getIncident(h.runtime.ctx, { id: incident.id })).chat_channel).toBeNull();
    h.fake.endOutage();
    const channelId = await h.channelOf(incident.id);
    await waitFor(() => texts(h!.fake, channelId).length === 2, { what: 'the note', timeoutMs: 20_000 });
    expect(texts(h.fake, channelId)[1]).toBe('📝 *tester*: written while chat was down');
    expect(await h.failures(incident.id)).toEqual([]);
  }, 40_000);

  it('counts the last try of an outage as a failure', async () => {
    h = await startChatHarness({ startChat: false });
    const incident = await h.open('Outage outlasts the retries');
    const client = createChatClient({
      botToken: h.fake.botToken,
      apiUrl: h.fake.url,
      signingSecret: undefined,
    })!;
    const deps = { ctx: h.runtime.ctx, client, publicUrl: PUBLIC_URL };
    const job = (attemptsMade: number) =>
      ({
        id: 'manual',
        name: 'chat.open_channel',
        attemptsMade,
        opts: { attempts: 25 },
      }) as unknown as Parameters<typeof runChatJob>[1];
    h.fake.outage();
    await expect(runChatJob(deps, job(3), incident.id, openChannel)).rejects.toBeInstanceOf(ChatCallError);
    expect(await h.failures(incident.id)).toEqual([]);
    await runChatJob(deps, job(24), incident.id, openChannel);
    expect(await h.failures(incident.id)).toEqual([{ operation: 'create_channel', code: 'http_500' }]);
    expect(h.runtime.logs.messages()).toContain('slack: channel creation failed: http_500');
  });
});
