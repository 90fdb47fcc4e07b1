// The card's buttons (Acknowledge, Make me Lead, Resolve) and the Events API. A click is answered 200 at once; what the user must be told goes to the click's response_url.
import { users } from '@firebreak/db';
import {
  type BlockActionInput,
  bodyOf,
  eventCallback,
  signedBlockActions,
  signedChatRequest,
  signedEvent,
  urlVerification,
  waitFor,
} from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatTestApp, newChannelId, SIGNING_SECRET, startChatTestApp } from './chat-test-app';

let s: ChatTestApp;
beforeAll(async () => {
  s = await startChatTestApp();
});
afterAll(() => s.cleanup());

/** Clicks as bob with a response_url on the fake; answers the HTTP reply and what reached the URL. */
async function click(input: Omit<BlockActionInput, 'responseUrl'>, expectReply: boolean) {
  const responseUrl = s.fake.responseUrl('actions');
  const res = await s.click({ ...input, responseUrl });
  const replies = expectReply
    ? await waitFor(() =>
        s.fake.hookPostsTo(responseUrl).length > 0 ? s.fake.hookPostsTo(responseUrl) : false,
      )
    : s.fake.hookPostsTo(responseUrl);
  return { ...res, replies: replies.map((p) => p.body as { text: string }) };
}

describe('card buttons', () => {
  it('Acknowledge, Make me Lead and Resolve change the incident as the clicking user', async () => {
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    for (const actionId of ['incident_acknowledge', 'incident_lead', 'incident_resolve']) {
      const answer = await click({ actionId, value: incident.id, channelId: channel }, false);
      expect(answer).toEqual({ status: 200, text: '', replies: [] });
    }
    const bob = await users.findUserByEmail(s.runtime.sql, 'bob@example.com');
    expect(bob).toMatchObject({ slack_user_id: 'U0BOB0002', auth_source: 'chat', name: 'Bob Roe' });
    const after = await s.incident(incident.id);
    expect(after).toMatchObject({ status: 'resolved', commander: { id: bob!.id } });
    const actor = { type: 'chat', id: bob!.id, name: 'Bob Roe' };
    const entries = await s.timeline(incident.id);
    expect(
      entries
        .filter((e: { actor: { type: string } }) => e.actor.type === 'chat')
        .map((e: { type: string }) => e.type),
    ).toEqual(['status_changed', 'commander_assigned', 'status_changed']);
    expect(entries.at(-1).actor).toEqual(actor);
  });

  it('takes the incident number as the value too', async () => {
    const incident = await s.incidentInChannel(newChannelId());
    await click({ actionId: 'incident_acknowledge', value: String(incident.number) }, false);
    expect((await s.incident(incident.id)).status).toBe('acknowledged');
  });

  it('tells the user, ephemerally and without replacing the card, what it could not do', async () => {
    const incident = await s.incidentInChannel(newChannelId());
    const label = `INC-${incident.number}`;
    await click({ actionId: 'incident_resolve', value: incident.id }, false);
    const again = await click({ actionId: 'incident_resolve', value: incident.id }, true);
    expect(again.status).toBe(200);
    expect(again.replies).toEqual([
      { response_type: 'ephemeral', replace_original: false, text: `${label} is already resolved.` },
    ]);
    const ack = await click({ actionId: 'incident_acknowledge', value: incident.id }, true);
    expect(ack.replies[0]!.text).toBe(`${label}: An incident that is resolved cannot become acknowledged.`);
    const lead = await click({ actionId: 'incident_lead', value: incident.id }, true);
    expect(lead.replies[0]!.text).toBe(`${label}: The incident is resolved; its timeline is sealed.`);
  });

  it('answers a button naming no incident with a reply, not an error', async () => {
    const gone = await click(
      { actionId: 'incident_acknowledge', value: '00000000-0000-4000-8000-000000000000' },
      true,
    );
    expect(gone.status).toBe(200);
    expect(gone.replies[0]!.text).toContain('That button no longer works: No incident');
    const garbage = await click({ actionId: 'incident_acknowledge', value: 'not-an-id' }, true);
    expect(garbage.replies[0]!.text).toContain('That button no longer works');
  });

  it('acknowledges other interactions and unknown buttons without doing anything', async () => {
    const incident = await s.incidentInChannel(newChannelId());
    expect(await click({ actionId: 'something_else', value: incident.id }, false)).toMatchObject({
      status: 200,
      replies: [],
    });
    const view = await s.send(
      '/api/v1/chat/actions',
      signedBlockActions(SIGNING_SECRET, { type: 'view_submission' }),
    );
    expect(view.status).toBe(200);
    expect((await s.incident(incident.id)).status).toBe('triggered');
  });

  it('answers 400 to a payload that is not JSON', async () => {
    const res = await s.send(
      '/api/v1/chat/actions',
      signedChatRequest(SIGNING_SECRET, 'payload=%7Bnot', 'application/x-www-form-urlencoded'),
    );
    expect(res.status).toBe(400);
    expect((await bodyOf(res)).error.code).toBe('invalid_json');
  });
});

describe('events', () => {
  const botLeft = (channel: string, eventId: string) =>
    eventCallback(
      { type: 'member_left_channel', user: 'U0BOTUSR1', channel, channel_type: 'C', team: 'T0TEAM001' },
      { eventId },
    );
  const removals = () => s.runtime.logs.lines.filter((l) => l.msg === 'chat: bot removed from channel');

  it('answers the url_verification challenge', async () => {
    const res = await s.event(urlVerification('challenge-123'));
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ challenge: 'challenge-123' });
  });

  it('logs the bot leaving an incident channel once, however often Slack retries', async () => {
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    const before = removals().length;
    const event = botLeft(channel, `Ev0LEFT${incident.number}`);
    expect((await s.event(event)).status).toBe(200);
    const retry = signedEvent(SIGNING_SECRET, event);
    retry.headers['x-slack-retry-num'] = '1';
    retry.headers['x-slack-retry-reason'] = 'http_timeout';
    expect((await s.send('/api/v1/chat/events', retry)).status).toBe(200);
    expect(removals().slice(before)).toEqual([
      expect.objectContaining({ channel_id: channel, incident_id: incident.id, number: incident.number }),
    ]);
    expect(s.runtime.logs.messages()).toContain('chat: duplicate event ignored');
  });

  it('logs channel_left, and ignores other people leaving and other events', async () => {
    const before = removals().length;
    expect(
      (await s.event(eventCallback({ type: 'channel_left', channel: 'C0OTHER01', actor_id: 'U0ALICE01' })))
        .status,
    ).toBe(200);
    expect(removals().slice(before)).toEqual([expect.objectContaining({ channel_id: 'C0OTHER01' })]);
    const other = eventCallback({ type: 'member_left_channel', user: 'U0CAROL03', channel: 'C0OTHER01' });
    expect((await s.event(other)).status).toBe(200);
    expect(
      (await s.event(eventCallback({ type: 'app_mention', user: 'U0ALICE01', text: 'hi', channel: 'C1' })))
        .status,
    ).toBe(200);
    expect(removals().length).toBe(before + 1);
  });

  it('forgets handled event ids after a day', async () => {
    await s.runtime
      .sql`insert into chat_events (event_id, received_at) values ('Ev0OLD', now() - interval '25 hours')`;
    await s.event(botLeft('C0PRUNE01', 'Ev0PRUNE'));
    const rows = await s.runtime
      .sql`select event_id from chat_events where event_id in ('Ev0OLD', 'Ev0PRUNE')`;
    expect(rows.map((r) => r.event_id)).toEqual(['Ev0PRUNE']);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const res = await s.send(
      '/api/v1/chat/events',
      signedChatRequest(SIGNING_SECRET, '{nope', 'application/json'),
    );
    expect(res.status).toBe(400);
  });
});
