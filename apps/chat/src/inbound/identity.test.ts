// A chat user is the user with that chat id, else the user with the profile's e-mail
// (which then gets the chat id), else a new user with `auth_source` chat, no password and the role of
// `chat_user_default_role`. Someone who matches no user (chat API down, no e-mail) is refused, unless
// `chat_allow_unmatched_users` lets them act under their chat name.
import { users } from '@firebreak/db';
import { updateSettings } from '@firebreak/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatTestApp, newChannelId, startChatTestApp } from './chat-test-app';

let s: ChatTestApp;
beforeAll(async () => {
  s = await startChatTestApp();
});
afterAll(() => s.cleanup());

const ackIn = async (channel: string, who: { user_id: string; user_name: string }, text = 'ack') =>
  (await s.command({ ...who, channel_id: channel, text })).body;
const statusEntries = async (id: string) =>
  (await s.timeline(id)).filter((e: { type: string }) => e.type === 'status_changed');
const usersInfoCalls = () => s.fake.callsTo('users.info').length;

describe('matching chat users', () => {
  it('finds a user by chat id without asking the chat service', async () => {
    const row = await users.insertUser(s.runtime.sql, {
      email: 'erin@example.test',
      name: 'Erin Example',
      role: 'member',
      slackUserId: 'U0ERIN005',
    });
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    const before = usersInfoCalls();
    await ackIn(channel, { user_id: 'U0ERIN005', user_name: 'erin' });
    expect(usersInfoCalls()).toBe(before);
    const [entry] = await statusEntries(incident.id);
    expect(entry.actor).toEqual({ type: 'chat', id: row.id, name: 'Erin Example' });
  });

  it('links an existing user by e-mail (any case) and remembers the chat id', async () => {
    s.fake.addUser({ id: 'U0DAVE004', name: 'dave', realName: 'Dave Moe', email: 'Dave.Moe@Example.com' });
    const local = await users.insertUser(s.runtime.sql, {
      email: 'dave.moe@example.com',
      name: 'Dave',
      role: 'admin',
    });
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    const before = usersInfoCalls();
    await ackIn(channel, { user_id: 'U0DAVE004', user_name: 'dave' });
    await ackIn(channel, { user_id: 'U0DAVE004', user_name: 'dave' });
    expect(usersInfoCalls()).toBe(before + 1);
    const linked = await users.findUserById(s.runtime.sql, local.id);
    expect(linked).toMatchObject({
      slack_user_id: 'U0DAVE004',
      auth_source: 'local',
      role: 'admin',
      name: 'Dave',
    });
    const [entry] = await statusEntries(incident.id);
    expect(entry.actor).toEqual({ type: 'chat', id: local.id, name: 'Dave' });
  });

  it('creates an unknown chat user as a member without a password', async () => {
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    await ackIn(channel, { user_id: 'U0CAROL03', user_name: 'carol' });
    const carol = await users.findUserByEmail(s.runtime.sql, 'carol@example.com');
    expect(carol).toMatchObject({
      name: 'Carol Poe',
      role: 'member',
      auth_source: 'chat',
      slack_user_id: 'U0CAROL03',
      password_hash: null,
      active: true,
    });
    const [entry] = await statusEntries(incident.id);
    expect(entry.actor).toEqual({ type: 'chat', id: carol!.id, name: 'Carol Poe' });
  });

  it('creates one user when the same new person sends two commands at once', async () => {
    s.fake.addUser({ id: 'U0FRED006', name: 'fred', realName: 'Fred Fast', email: 'fred@example.com' });
    const channel = newChannelId();
    await s.incidentInChannel(channel);
    await Promise.all([
      ackIn(channel, { user_id: 'U0FRED006', user_name: 'fred' }),
      ackIn(channel, { user_id: 'U0FRED006', user_name: 'fred' }, 'note first'),
    ]);
    const [row] = await s.runtime.sql`select count(*)::int as n from users where slack_user_id = 'U0FRED006'`;
    expect(row!.n).toBe(1);
  });

  it('does not create a user from a profile without an e-mail, and refuses the command', async () => {
    s.fake.addUser({ id: 'U0GHOST07', name: 'ghost', realName: 'No Mail' });
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    expect(await ackIn(channel, { user_id: 'U0GHOST07', user_name: 'ghost' })).toEqual({
      response_type: 'ephemeral',
      text: expect.stringContaining('shows no e-mail address'),
    });
    const [row] = await s.runtime.sql`select count(*)::int as n from users where slack_user_id = 'U0GHOST07'`;
    expect(row!.n).toBe(0);
    expect(await statusEntries(incident.id)).toEqual([]);
    expect(s.runtime.logs.messages()).toContain('chat user has no e-mail');
  });

  it('gives users created from chat the role chosen in settings', async () => {
    await updateSettings(s.runtime.ctx, { chat_user_default_role: 'viewer' });
    try {
      s.fake.addUser({ id: 'U0VERA013', name: 'vera', realName: 'Vera New', email: 'vera@example.com' });
      const channel = newChannelId();
      const incident = await s.incidentInChannel(channel);
      expect((await ackIn(channel, { user_id: 'U0VERA013', user_name: 'vera' })).text).toContain(
        'role is viewer',
      );
      expect(await users.findUserByEmail(s.runtime.sql, 'vera@example.com')).toMatchObject({
        role: 'viewer',
        auth_source: 'chat',
      });
      expect(await statusEntries(incident.id)).toEqual([]);
    } finally {
      await updateSettings(s.runtime.ctx, { chat_user_default_role: 'member' });
    }
  });
});

describe('roles', () => {
  it('refuses viewers and deactivated users, and changes nothing', async () => {
    await users.insertUser(s.runtime.sql, {
      email: 'vic@example.test',
      name: 'Vic Viewer',
      role: 'viewer',
      slackUserId: 'U0VIEW008',
    });
    const gone = await users.insertUser(s.runtime.sql, {
      email: 'old@example.test',
      name: 'Old Hand',
      role: 'member',
      slackUserId: 'U0GONE009',
    });
    await s.runtime.sql`update users set active = false where id = ${gone.id}`;
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    const viewer = await ackIn(channel, { user_id: 'U0VIEW008', user_name: 'vic' });
    expect(viewer).toEqual({ response_type: 'ephemeral', text: expect.stringContaining('role is viewer') });
    const created = await s.command({ user_id: 'U0VIEW008', user_name: 'vic', text: 'new Not allowed' });
    expect(created.body.text).toContain('role is viewer');
    expect((await ackIn(channel, { user_id: 'U0GONE009', user_name: 'old' })).text).toContain('deactivated');
    expect(await statusEntries(incident.id)).toEqual([]);
  });
});

describe('when the chat API cannot be asked', () => {
  it('refuses to act for someone it cannot match: ephemeral reply, nothing changed', async () => {
    s.fake.addUser({ id: 'U0HANK010', name: 'hank', realName: 'Hank Hill', email: 'hank@example.com' });
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    s.fake.outage();
    try {
      expect(await ackIn(channel, { user_id: 'U0HANK010', user_name: 'hank' })).toEqual({
        response_type: 'ephemeral',
        text: expect.stringContaining('could not look you up'),
      });
      const note = await ackIn(channel, { user_id: 'U0HANK010', user_name: 'hank' }, 'note sneaky');
      expect(note.text).toContain('could not look you up');
      const created = await s.command({ user_id: 'U0HANK010', user_name: 'hank', text: 'new Not from hank' });
      expect(created.body.text).toContain('could not look you up');
    } finally {
      s.fake.endOutage();
    }
    expect(await statusEntries(incident.id)).toEqual([]);
    expect((await s.timeline(incident.id)).filter((e: { type: string }) => e.type === 'message')).toEqual([]);
    expect(s.runtime.logs.messages()).toContain('chat user lookup failed');
  });

  it('acts under the chat name when an admin allows unmatched users, but cannot make a lead', async () => {
    await updateSettings(s.runtime.ctx, { chat_allow_unmatched_users: true });
    s.fake.addUser({ id: 'U0UNA0014', name: 'una', realName: 'Una Allowed', email: 'una@example.com' });
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    s.fake.outage();
    try {
      expect((await ackIn(channel, { user_id: 'U0UNA0014', user_name: 'una' })).text).toContain(
        'You acknowledged',
      );
      const lead = await ackIn(channel, { user_id: 'U0UNA0014', user_name: 'una' }, 'lead');
      expect(lead.text).toContain('could not look you up');
    } finally {
      s.fake.endOutage();
      await updateSettings(s.runtime.ctx, { chat_allow_unmatched_users: false });
    }
    const [entry] = await statusEntries(incident.id);
    expect(entry.actor).toEqual({ type: 'chat', name: 'una' });
  });

  it('answers within 3 seconds when the chat API hangs', async () => {
    s.fake.addUser({ id: 'U0IVY0011', name: 'ivy', realName: 'Ivy Slow', email: 'ivy@example.com' });
    const channel = newChannelId();
    await s.incidentInChannel(channel);
    s.fake.setLatency(8000);
    try {
      const started = Date.now();
      const body = await ackIn(channel, { user_id: 'U0IVY0011', user_name: 'ivy' });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(body.text).toContain('could not look you up');
    } finally {
      s.fake.setLatency(0);
    }
  });

  it('refuses the same way when the token was revoked', async () => {
    s.fake.addUser({ id: 'U0JOE0012', name: 'joe', realName: 'Joe Revoked', email: 'joe@example.com' });
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    s.fake.setTokenValid(false);
    try {
      await ackIn(channel, { user_id: 'U0JOE0012', user_name: 'joe' });
    } finally {
      s.fake.setTokenValid(true);
    }
    expect(await statusEntries(incident.id)).toEqual([]);
    const line = s.runtime.logs.lines.find(
      (l) => l.msg === 'chat user lookup failed' && l.chat_user_id === 'U0JOE0012',
    );
    expect(line).toMatchObject({ err: { type: 'Error', message: 'users.info: invalid_auth' } });
    expect(JSON.stringify(s.runtime.logs.lines)).not.toContain(s.fake.botToken);
  });
});
