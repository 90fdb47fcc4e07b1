import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, type TestClient } from '@firebreak/testing';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let api: TestClient;
let admin: TestUser;
let member: TestUser;
let ana: TestUser;
let ben: TestUser;
let boss: TestUser;
let scheduleId: string;

const PUBLIC_URL = 'https://firebreak.example.test';
const DAY_MS = 86_400_000;
// Midnight UTC three days ago: the rotation has been running, and the feed shows the past week too.
const rotationStart = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - 3 * DAY_MS);

beforeAll(async () => {
  ({
    runtime,
    api,
    users: { admin, member, ana, ben, boss },
  } = await startTestApp(createApp, {
    env: { PUBLIC_URL },
    users: {
      ...oneUserPerRole,
      ana: { role: 'member', name: 'Ana Alves' },
      ben: { role: 'viewer', name: 'Ben Brandt' },
      boss: { role: 'admin', name: 'Bo Boss' },
    },
  }));
  const res = await api('POST', '/api/v1/schedules', {
    token: admin.token,
    body: {
      name: 'Feed schedule',
      layers: [
        {
          name: 'Days',
          rotation_start: rotationStart.toISOString(),
          shift_duration_seconds: 86_400,
          participants: [ana.id, ben.id],
        },
      ],
    },
  });
  scheduleId = (await bodyOf(res)).id;
});
afterAll(() => runtime.cleanup());

interface ParsedEvent {
  uid: string;
  start: number;
  end: number;
  summary: string;
}

/** Reads the feed with no credentials but its URL, and parses it as a calendar application would. */
async function readFeed(
  url: string,
): Promise<{ status: number; type: string | null; events: ParsedEvent[] }> {
  const res = await api('GET', url.slice(PUBLIC_URL.length));
  if (res.status !== 200) return { status: res.status, type: res.headers.get('content-type'), events: [] };
  const calendar = new ICAL.Component(ICAL.parse(await res.text()));
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      start: event.startDate.toJSDate().getTime(),
      end: event.endDate.toJSDate().getTime(),
      summary: event.summary,
    };
  });
  return { status: 200, type: res.headers.get('content-type'), events };
}

async function createFeed(token: string, path = '/api/v1/users/me/calendar-feed') {
  const res = await api('POST', path, { token });
  expect(res.status).toBe(201);
  return (await bodyOf(res)) as { url: string; token_hint: string };
}

describe('a person’s calendar feed', () => {
  it('is a secret absolute URL whose calendar holds their shifts, one event per shift, without logging in', async () => {
    const feed = await createFeed(ana.token);
    expect(feed.url).toMatch(
      /^https:\/\/firebreak\.example\.test\/api\/v1\/calendar\/fbc_[A-Za-z0-9_-]{43}\.ics$/,
    );
    expect(feed.url.slice(0, -'.ics'.length).endsWith(feed.token_hint)).toBe(true);
    const { status, type, events } = await readFeed(feed.url);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/calendar/);
    // Ana's turns are every other day from the rotation start; the feed runs from 7 days ago to 90 ahead.
    expect(events.length).toBeGreaterThanOrEqual(45);
    for (const event of events) {
      expect(event.summary).toBe('On call: Ana Alves (Feed schedule)');
      expect(event.end - event.start).toBe(DAY_MS);
      expect(((event.start - rotationStart.getTime()) / DAY_MS) % 2).toBe(0);
    }
    expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
  });

  it('keeps each shift’s UID when the schedule changes, so calendars update rather than duplicate', async () => {
    const feed = await createFeed(ana.token);
    const before = (await readFeed(feed.url)).events;
    const next = before.find((e) => e.start > Date.now())!;
    const res = await api('POST', `/api/v1/schedules/${scheduleId}/overrides`, {
      token: admin.token,
      body: {
        user_id: member.id,
        replaces_user_id: ana.id,
        starts_at: new Date(next.start + 12 * 3_600_000).toISOString(),
        ends_at: new Date(next.end).toISOString(),
      },
    });
    expect(res.status).toBe(201);
    const after = (await readFeed(feed.url)).events;
    const changed = after.find((e) => e.uid === next.uid)!;
    expect(changed.end - changed.start).toBe(12 * 3_600_000);
    expect(after.map((e) => e.uid)).toEqual(before.map((e) => e.uid));
  });

  it('a new feed replaces the old one; revoking ends it; unknown tokens are 404', async () => {
    const old = await createFeed(ben.token);
    const current = await createFeed(ben.token);
    expect((await readFeed(old.url)).status).toBe(404);
    expect((await readFeed(current.url)).status).toBe(200);
    expect((await api('DELETE', '/api/v1/users/me/calendar-feed', { token: ben.token })).status).toBe(204);
    expect((await readFeed(current.url)).status).toBe(404);
    expect((await api('GET', `/api/v1/calendar/fbc_${'A'.repeat(43)}.ics`)).status).toBe(404);
    expect((await api('GET', '/api/v1/calendar/not-a-token')).status).toBe(404);
    const audit = await runtime.sql`
      select action, after, before from audit_log where entity_type = 'calendar_feed' and actor_id = ${ben.id} order by seq`;
    expect(audit.map((row) => row.action)).toEqual(['create', 'create', 'revoke']);
    // Only the hint is recorded, never the token or its digest.
    expect(JSON.stringify(audit)).not.toContain(current.url.split('/').at(-1)!.slice(0, -4));
  });

  it('never writes the token to the logs', async () => {
    const feed = await createFeed(ana.token);
    const token = feed.url.split('/').at(-1)!.slice(0, -'.ics'.length);
    await readFeed(feed.url);
    await api('GET', `/api/v1/calendar/${token.slice(0, -1)}B.ics`);
    const logged = JSON.stringify(runtime.logs.lines);
    expect(logged).toContain('/api/v1/calendar/fbc_…');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(token.slice(4, 20));
  });
});

describe('a schedule’s calendar feed', () => {
  it('admins create and revoke it; it holds everyone’s shifts; others get 403', async () => {
    expect(
      (await api('POST', `/api/v1/schedules/${scheduleId}/calendar-feed`, { token: member.token })).status,
    ).toBe(403);
    expect(
      (
        await api('POST', '/api/v1/schedules/00000000-0000-4000-8000-000000000000/calendar-feed', {
          token: admin.token,
        })
      ).status,
    ).toBe(404);
    const feed = await createFeed(admin.token, `/api/v1/schedules/${scheduleId}/calendar-feed`);
    const { events } = await readFeed(feed.url);
    const people = new Set(events.map((e) => e.summary));
    expect(people).toEqual(
      new Set([
        'On call: Ana Alves (Feed schedule)',
        'On call: Ben Brandt (Feed schedule)',
        'On call: Mia Member (Feed schedule)',
      ]),
    );
    expect(
      (await api('DELETE', `/api/v1/schedules/${scheduleId}/calendar-feed`, { token: member.token })).status,
    ).toBe(403);
    expect(
      (await api('DELETE', `/api/v1/schedules/${scheduleId}/calendar-feed`, { token: admin.token })).status,
    ).toBe(204);
    expect((await readFeed(feed.url)).status).toBe(404);
  });
});

describe('shifts that began before the feed’s window', () => {
  it('keep their real start and UID from one poll to the next', async () => {
    const HOUR = 3_600_000;
    // Whole seconds, as iCalendar writes times.
    const now = Math.floor(Date.now() / 1000) * 1000;
    // Weekly turns from long before the window, so the turn running 7 days ago began 3.5 days earlier.
    const start = new Date(now - 7 * DAY_MS - 3.5 * DAY_MS - 35 * DAY_MS);
    const res = await api('POST', '/api/v1/schedules', {
      token: admin.token,
      body: {
        name: 'Weekly schedule',
        layers: [
          {
            name: 'Weeks',
            rotation_start: start.toISOString(),
            shift_duration_seconds: 7 * 86_400,
            participants: [ana.id, ben.id],
          },
        ],
      },
    });
    const weekly = (await bodyOf(res)).id as string;
    const feed = await createFeed(admin.token, `/api/v1/schedules/${weekly}/calendar-feed`);
    const realNow = runtime.ctx.now;
    try {
      runtime.ctx.now = () => new Date(now);
      const first = (await readFeed(feed.url)).events;
      runtime.ctx.now = () => new Date(now + 2 * HOUR);
      const second = (await readFeed(feed.url)).events;
      // Only the last event, cut at the window's far end, may grow as the window moves on.
      expect(second.map((e) => [e.uid, e.start])).toEqual(first.map((e) => [e.uid, e.start]));
      expect(second.slice(0, -1)).toEqual(first.slice(0, -1));
      expect(first[0]!.start).toBe(now - 7 * DAY_MS - 3.5 * DAY_MS);
      for (const event of first.slice(0, -1)) expect(event.end - event.start).toBe(7 * DAY_MS);
    } finally {
      runtime.ctx.now = realNow;
    }
  });
});

describe('who may still read a feed', () => {
  it('an admin revokes someone’s feed: recorded; members may not; an unknown user is 404', async () => {
    const feed = await createFeed(ana.token);
    const path = `/api/v1/users/${ana.id}/calendar-feed`;
    expect((await api('DELETE', path, { token: member.token })).status).toBe(403);
    expect((await readFeed(feed.url)).status).toBe(200);
    expect((await api('DELETE', path, { token: admin.token })).status).toBe(204);
    expect((await readFeed(feed.url)).status).toBe(404);
    const unknown = '/api/v1/users/00000000-0000-4000-8000-000000000000/calendar-feed';
    expect((await api('DELETE', unknown, { token: admin.token })).status).toBe(404);
    const audit = await runtime.sql`
      select action, before from audit_log
      where entity_type = 'calendar_feed' and actor_id = ${admin.id} and action = 'revoke'
      order by seq desc limit 1`;
    expect(audit[0]?.before).toMatchObject({ user_id: ana.id, token_hint: feed.token_hint });
  });

  it('a schedule’s feed stops when the admin who made it is no longer an active admin', async () => {
    const feed = await createFeed(boss.token, `/api/v1/schedules/${scheduleId}/calendar-feed`);
    expect((await readFeed(feed.url)).status).toBe(200);
    const demote = await api('PATCH', `/api/v1/users/${boss.id}`, {
      token: admin.token,
      body: { role: 'member' },
    });
    expect(demote.status).toBe(200);
    expect((await readFeed(feed.url)).status).toBe(404);
  });

  it('a person’s feed answers 404 once they are inactive, and deactivating them revokes it', async () => {
    const feed = await createFeed(ben.token);
    await runtime.sql`update users set active = false where id = ${ben.id}`;
    expect((await readFeed(feed.url)).status).toBe(404);
    await runtime.sql`update users set active = true where id = ${ben.id}`;
    expect((await readFeed(feed.url)).status).toBe(200);
    const off = await api('PATCH', `/api/v1/users/${ben.id}`, {
      token: admin.token,
      body: { active: false },
    });
    expect(off.status).toBe(200);
    expect(await runtime.sql`select 1 from calendar_feeds where user_id = ${ben.id}`).toHaveLength(0);
    const [revoked] = await runtime.sql`
      select action from audit_log where entity_type = 'calendar_feed' order by seq desc limit 1`;
    expect(revoked?.action).toBe('revoke');
  });
});
