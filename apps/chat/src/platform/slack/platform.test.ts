// The Slack platform's direct messages and their worker-wide channel cache, against the fake chat API.
import { createChatClient } from '@firebreak/chat-client';
import { type FakeChatApi, startFakeChatApi } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackPlatform } from './platform';

let fake: FakeChatApi;
beforeAll(async () => {
  fake = await startFakeChatApi();
});
afterAll(() => fake.close());

const client = () =>
  createChatClient({ botToken: fake.botToken, apiUrl: fake.url, signingSecret: undefined })!;
const opens = () => fake.callsTo('conversations.open').length;
const page = { text: 'You are paged' };

describe('direct messages', () => {
  it('opens a person’s channel once and reuses it', async () => {
    const directChannels = new Map<string, string>();
    const slack = slackPlatform(client(), { directChannels });
    const before = opens();
    expect(await slack.sendDirectMessage('U0ALICE01', page)).toEqual(expect.any(String));
    expect(await slack.sendDirectMessage('U0ALICE01', page)).toEqual(expect.any(String));
    expect(opens()).toBe(before + 1);
    expect(directChannels.get('U0ALICE01')).toBe(fake.dmChannel('U0ALICE01')!.id);
  });

  it('a cached channel Slack no longer knows is dropped, and the message sent through a fresh one', async () => {
    const directChannels = new Map([['U0BOB0002', 'D0GONE0001']]);
    const slack = slackPlatform(client(), { directChannels });
    const sent = fake.dms('U0BOB0002').length;
    const before = opens();
    expect(await slack.sendDirectMessage('U0BOB0002', page)).toEqual(expect.any(String));
    expect(opens()).toBe(before + 1);
    expect(fake.dms('U0BOB0002')).toHaveLength(sent + 1);
    expect(directChannels.get('U0BOB0002')).toBe(fake.dmChannel('U0BOB0002')!.id);
  });

  it('a refused post to a cached channel (is_archived) is sent once more through conversations.open', async () => {
    const directChannels = new Map<string, string>();
    const slack = slackPlatform(client(), { directChannels });
    await slack.sendDirectMessage('U0CAROL03', page);
    const sent = fake.dms('U0CAROL03').length;
    const before = opens();
    fake.failNext('chat.postMessage', 'is_archived');
    expect(await slack.sendDirectMessage('U0CAROL03', page)).toEqual(expect.any(String));
    expect(opens()).toBe(before + 1);
    expect(fake.dms('U0CAROL03')).toHaveLength(sent + 1);
  });

  it('a refusal through a freshly opened channel, and a rate limit, are thrown without another try', async () => {
    const directChannels = new Map<string, string>();
    const slack = slackPlatform(client(), { directChannels });
    const before = opens();
    fake.failNext('chat.postMessage', 'channel_not_found');
    await expect(slack.sendDirectMessage('U0ALICE01', page)).rejects.toMatchObject({
      data: { error: 'channel_not_found' },
    });
    expect(opens()).toBe(before + 1);
    // A rate limit says nothing about the channel: the entry stays and nothing is opened.
    const cached = directChannels.get('U0ALICE01');
    fake.rateLimit({ method: 'chat.postMessage', retryAfter: 1 });
    await expect(slack.sendDirectMessage('U0ALICE01', page)).rejects.toMatchObject({ retryAfter: 1 });
    expect(opens()).toBe(before + 1);
    expect(directChannels.get('U0ALICE01')).toBe(cached);
  });
});
