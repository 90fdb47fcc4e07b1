// `/incident new|ack|resolve|lead|note|help`, answered within Slack's
// 3 seconds, acting on the incident of the channel they are typed in, as the matched user.
import { users } from '@firebreak/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatTestApp, newChannelId, startChatTestApp } from './chat-test-app';

let s: ChatTestApp;
beforeAll(async () => {
  s = await startChatTestApp();
});
afterAll(() => s.cleanup());

const alice = { user_id: 'U0ALICE01', user_name: 'alice' };
const timelineOf = async (id: string) => await s.timeline(id);

describe('/incident new', () => {
  it('opens an incident from chat and answers in the channel with its number and link', async () => {
    const { status, body } = await s.command({ ...alice, text: 'new Checkout <errors> & timeouts' });
    expect(status).toBe(200);
    expect(body.response_type).toBe('in_channel');
    const number = Number(/INC-(\d+)/.exec(body.text)?.[1]);
    expect(body.text).toContain(`<https://firebreak.example.test/incidents/${number}|INC-${number}>`);
    expect(body.text).toContain('Checkout &lt;errors&gt; &amp; timeouts');
    expect(body.text).toContain('<@U0ALICE01>');
    const incident = await s.incident(number);
    expect(incident).toMatchObject({
      title: 'Checkout <errors> & timeouts',
      severity: 'high',
      status: 'triggered',
      source: 'chat',
    });
    const [created] = await timelineOf(incident.id);
    const user = await users.findUserByEmail(s.runtime.sql, 'alice@example.com');
    expect(created).toMatchObject({
      type: 'incident_created',
      actor: { type: 'chat', id: user!.id, name: 'Alice Doe' },
    });
    expect(s.runtime.logs.messages()).toContain('incident created');
  });

  it('asks for a title when there is none, and refuses one that is too long', async () => {
    const empty = await s.command({ ...alice, text: 'new   ' });
    expect(empty.body).toMatchObject({ response_type: 'ephemeral' });
    expect(empty.body.text).toContain('/incident new &lt;title&gt;');
    const long = await s.command({ ...alice, text: `new ${'x'.repeat(501)}` });
    expect(long.body.response_type).toBe('ephemeral');
    expect(long.body.text).toContain('title cannot be used');
  });
});

describe('commands in an incident channel', () => {
  it('ack, lead, note and resolve act on the channel incident, recorded with the chat user', async () => {
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    const run = async (text: string) => (await s.command({ ...alice, channel_id: channel, text })).body;

    expect(await run('ack')).toEqual({
      response_type: 'ephemeral',
      text: `You acknowledged INC-${incident.number}.`,
    });
    expect((await run('ack')).text).toBe(`INC-${incident.number} is already acknowledged.`);
    expect((await run('lead')).text).toBe(`You are now the lead of INC-${incident.number}.`);
    expect((await run('lead')).text).toBe(`You are already the lead of INC-${incident.number}.`);
    expect((await run('note Rolled back to 1.4.2')).text).toBe(`Note added to INC-${incident.number}.`);
    expect((await run('note')).text).toContain('/incident note &lt;text&gt;');
    expect((await run('resolve')).text).toBe(`You resolved INC-${incident.number}.`);

    const after = await s.incident(incident.id);
    const user = await users.findUserByEmail(s.runtime.sql, 'alice@example.com');
    expect(after).toMatchObject({ status: 'resolved', commander: { id: user!.id, name: 'Alice Doe' } });
    const actor = { type: 'chat', id: user!.id, name: 'Alice Doe' };
    const entries = await timelineOf(incident.id);
    expect(entries.filter((e: { actor: { type: string } }) => e.actor.type === 'chat')).toEqual([
      expect.objectContaining({
        type: 'status_changed',
        actor,
        data: { from: 'triggered', to: 'acknowledged' },
      }),
      expect.objectContaining({ type: 'commander_assigned', actor }),
      expect.objectContaining({ type: 'message', actor, data: { text: 'Rolled back to 1.4.2' } }),
      expect.objectContaining({
        type: 'status_changed',
        actor,
        data: expect.objectContaining({ to: 'resolved' }),
      }),
    ]);
  });

  it('explains what cannot be done to a resolved incident', async () => {
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    await s.command({ ...alice, channel_id: channel, text: 'resolve' });
    const label = `INC-${incident.number}`;
    const run = async (text: string) => (await s.command({ ...alice, channel_id: channel, text })).body;
    expect(await run('resolve')).toEqual({
      response_type: 'ephemeral',
      text: `${label} is already resolved.`,
    });
    expect((await run('ack')).text).toBe(
      `${label}: An incident that is resolved cannot become acknowledged.`,
    );
    expect((await run('note too late')).text).toBe(
      `${label}: The incident is resolved; its timeline is sealed.`,
    );
    expect((await run('lead')).text).toBe(`${label}: The incident is resolved; its timeline is sealed.`);
  });
});

describe('commands outside an incident channel', () => {
  it.each(['ack', 'acknowledge', 'resolve', 'lead', 'note hello'])(
    '%s answers an ephemeral error',
    async (text) => {
      const { status, body } = await s.command({ ...alice, channel_id: 'C0GENERAL', text });
      expect(status).toBe(200);
      expect(body.response_type).toBe('ephemeral');
      expect(body.text).toContain('This channel is not an incident channel');
      expect(body.text).toContain('/incident new &lt;title&gt;');
    },
  );

  it('never turns the typed text into markup in the answer', async () => {
    const { body } = await s.command({ ...alice, channel_id: 'C0GENERAL', text: 'note <!channel> look' });
    expect(body.text).toContain('`/incident note &lt;!channel&gt; look`');
    expect(body.text).not.toContain('<!channel>');
  });
});

describe('help', () => {
  it.each(['help', '', 'HELP'])('"%s" lists the subcommands, to the user only', async (text) => {
    const { body } = await s.command({ ...alice, text });
    expect(body.response_type).toBe('ephemeral');
    for (const word of [
      'new &lt;title&gt;',
      'ack',
      'resolve',
      'lead',
      'note &lt;text&gt;',
      'escalate',
      'status',
      'help',
    ]) {
      expect(body.text).toContain(word);
    }
  });

  it('names an unknown subcommand and shows the help', async () => {
    const { body } = await s.command({ ...alice, text: 'archive <!channel>' });
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('`/incident archive` is not a command I know');
    expect(body.text).toContain('note &lt;text&gt;');
  });

  it("answers Slack's certificate check", async () => {
    const res = await s.command({ ssl_check: '1' } as never);
    expect(res).toEqual({ status: 200, body: null });
  });
});

describe('when the database is down', () => {
  it('tells the user in the command answer instead of failing the request', async () => {
    const down = await startChatTestApp();
    try {
      await down.runtime.sql.end();
      const { status, body } = await down.command({ ...alice, channel_id: 'C0ANY', text: 'ack' });
      expect(status).toBe(200);
      expect(body).toEqual({
        response_type: 'ephemeral',
        text: 'Firebreak could not do that: The database is unavailable. Try again shortly.',
      });
      expect(down.runtime.logs.messages()).toContain('chat command failed');
    } finally {
      await down.cleanup();
    }
  });
});
