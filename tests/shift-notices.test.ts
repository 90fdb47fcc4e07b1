// Shift notices end to end (docs/schedules.md#shift-notices): the worker plans and claims the timer rows,
// the outbox relays the chat job, the chat app sends the direct message to the fake chat API.
import { CreateScheduleInput } from '@firebreak/schema';
import {
  createOverride,
  createSchedule,
  type Principal,
  planAllShiftNotices,
  queueDueShiftNotices,
} from '@firebreak/services';
import { deleteRedisKeys } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatHarness, chatUser, startChatHarness } from './support/chat-outbound';

let h: ChatHarness | undefined;

afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const HOUR = 3_600_000;
const MINUTE = 60_000;
const admin: Principal = { kind: 'session', role: 'admin', user: null };

/** The harness with a clock the test moves: every worker and the chat app read `ctx.now`. */
async function start(options: { startChat?: boolean } = {}) {
  h = await startChatHarness(options);
  const clock = { now: Date.now() };
  h.runtime.ctx.now = () => new Date(clock.now);
  // A shift start an hour ahead, on the hour, so hand-overs are wall-clock times in the zone.
  const firstStart = Math.ceil((clock.now + HOUR) / HOUR) * HOUR;
  return { h, clock, firstStart };
}

async function dailySchedule(harness: ChatHarness, start: number, people: string[], seconds = 86_400) {
  return createSchedule(
    harness.runtime.ctx,
    CreateScheduleInput.parse({
      name: `Primary ${Math.random()}`,
      timezone: 'Europe/Berlin',
      layers: [
        {
          rotation_start: new Date(start).toISOString(),
          shift_duration_seconds: seconds,
          participants: people,
        },
      ],
    }),
  );
}

const berlinTime = (at: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }).format(
    at,
  );

/** "Tue 1 Dec, 09:00" in Berlin, as notices write it. */
const dayAndTime = (at: number) => {
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', ...options }).format(at);
  return `${part({ weekday: 'short' })} ${part({ day: 'numeric' })} ${part({ month: 'short' })}, ${berlinTime(at)}`;
};

async function noticeStates(harness: ChatHarness) {
  const rows = await harness.runtime.sql<{ user_id: string; state: string; reason: string | null }[]>`
    select user_id, state, reason from shift_notices order by starts_at, user_id`;
  return rows.map((r) => [r.user_id, r.state, r.reason]);
}

describe('shift notices', () => {
  it('direct-messages the person whose shift starts, once, however many workers run', async () => {
    const { h, clock, firstStart } = await start();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const bob = await chatUser(h.runtime, 'Bob', 'U0BOB0002');
    const schedule = await dailySchedule(h, firstStart, [alice.id, bob.id]);
    await h.idle();
    expect(h.fake.dms('U0ALICE01')).toHaveLength(0);

    clock.now = firstStart + MINUTE;
    // Workers racing for the same due rows: each claims `for update skip locked`, so one queues it.
    const passes = await Promise.all([
      h.worker.tick(),
      queueDueShiftNotices(h.runtime.ctx),
      queueDueShiftNotices(h.runtime.ctx),
      queueDueShiftNotices(h.runtime.ctx),
    ]);
    expect(passes.slice(1).reduce((a, b) => (a as number) + (b as number), 0)).toBeLessThanOrEqual(1);
    await h.idle();
    await h.idle();

    const dms = h.fake.dms('U0ALICE01');
    expect(dms.map((m) => m.text)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^You are on call for \\*${schedule.name.replace('.', '\\.')}\\* until \\w{3} \\d{1,2} \\w{3}, ${berlinTime(firstStart + 24 * HOUR)} CES?T\\.$`,
        ),
      ),
    ]);
    expect(h.fake.dms('U0BOB0002')).toHaveLength(0);
    // Planned 48 hours ahead: Bob tomorrow, Alice the day after.
    expect(await noticeStates(h)).toEqual([
      [alice.id, 'sent', null],
      [bob.id, 'planned', null],
      [alice.id, 'planned', null],
    ]);
  });

  it('queues a notice again after Redis lost its job, and still sends it once', async () => {
    const { h, clock, firstStart } = await start({ startChat: false });
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    await dailySchedule(h, firstStart, [alice.id]);
    clock.now = firstStart + MINUTE;
    await h.worker.tick();
    expect(await noticeStates(h)).toEqual([[alice.id, 'queued', null]]);
    // The job reached Redis; Redis restarts empty before the chat app takes it.
    await deleteRedisKeys(h.runtime.ctx.redisPrefix);
    h.startChat();
    await h.idle();
    expect(h.fake.dms('U0ALICE01')).toHaveLength(0);

    clock.now = firstStart + 25 * MINUTE;
    await h.idle();
    await h.idle();
    expect(h.fake.dms('U0ALICE01')).toHaveLength(1);
    expect(await noticeStates(h)).toEqual([[alice.id, 'sent', null]]);
  });

  it('skips a notice whose shift ended while no worker ran, and sends the running one late', async () => {
    const { h, clock, firstStart } = await start();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const bob = await chatUser(h.runtime, 'Bob', 'U0BOB0002');
    await dailySchedule(h, firstStart, [alice.id, bob.id]);
    await h.idle();
    clock.now = firstStart + 25 * HOUR;
    await h.idle();
    await h.idle();
    expect(h.fake.dms('U0ALICE01')).toHaveLength(0);
    expect(h.fake.dms('U0BOB0002')).toHaveLength(1);
    expect((await noticeStates(h)).slice(0, 2)).toEqual([
      [alice.id, 'skipped', 'shift_over'],
      [bob.id, 'sent', null],
    ]);
  });

  it('records a message the chat service refuses, logs it, and does not retry it', async () => {
    const { h, clock, firstStart } = await start();
    const ghost = await chatUser(h.runtime, 'Ghost', 'U0GHOST99');
    await dailySchedule(h, firstStart, [ghost.id]);
    clock.now = firstStart + MINUTE;
    await h.idle();
    await h.idle();
    expect(await noticeStates(h)).toEqual([[ghost.id, 'failed', 'user_not_found']]);
    expect(h.runtime.logs.messages()).toContain('slack: post message failed: user_not_found');
    // Not queued again: only a notice still `queued` is.
    clock.now = firstStart + 30 * MINUTE;
    await h.idle();
    expect(await noticeStates(h)).toEqual([[ghost.id, 'failed', 'user_not_found']]);
  });

  it('follows an override made after planning, and leaves out someone who turned notices off', async () => {
    const { h, clock, firstStart } = await start();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const bob = await chatUser(h.runtime, 'Bob', 'U0BOB0002');
    const carol = await chatUser(h.runtime, 'Carol', 'U0CAROL03');
    await h.runtime.sql`update users set shift_notices = false where id = ${bob.id}`;
    const schedule = await dailySchedule(h, firstStart, [alice.id, bob.id]);
    await h.idle();
    // Carol takes Alice's first shift; Alice is back two hours after it starts.
    await createOverride(h.runtime.ctx, admin, schedule.id, {
      user_id: carol.id,
      replaces_user_id: alice.id,
      starts_at: new Date(firstStart - HOUR).toISOString(),
      ends_at: new Date(firstStart + 2 * HOUR).toISOString(),
    });
    clock.now = firstStart + MINUTE;
    await h.idle();
    await h.idle();
    expect(h.fake.dms('U0ALICE01')).toHaveLength(0);
    expect(h.fake.dms('U0CAROL03').map((m) => m.text)).toEqual([
      expect.stringContaining('You are on call for'),
    ]);
    expect(h.fake.dms('U0CAROL03')[0]!.text).toContain(berlinTime(firstStart + 2 * HOUR));

    clock.now = firstStart + 2 * HOUR + MINUTE;
    await h.idle();
    await h.idle();
    expect(h.fake.dms('U0ALICE01').map((m) => m.text)).toEqual([
      expect.stringContaining(berlinTime(firstStart + 24 * HOUR)),
    ]);

    clock.now = firstStart + 24 * HOUR + MINUTE;
    await h.idle();
    await h.idle();
    expect(h.fake.dms('U0BOB0002')).toHaveLength(0);
    const states = await noticeStates(h);
    expect(states).toContainEqual([bob.id, 'skipped', 'notices_off']);
  });

  it('does not announce a shift again when a change moves its start after it was announced', async () => {
    const { h, clock, firstStart } = await start();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const carol = await chatUser(h.runtime, 'Carol', 'U0CAROL03');
    const schedule = await dailySchedule(h, firstStart, [alice.id, carol.id]);
    clock.now = firstStart + MINUTE;
    await h.idle();
    await h.idle();
    expect(h.fake.dms('U0ALICE01')).toHaveLength(1);
    // Carol takes Alice's first half hour after Alice was told: Alice's shift now starts later.
    clock.now = firstStart + 5 * MINUTE;
    await createOverride(h.runtime.ctx, admin, schedule.id, {
      user_id: carol.id,
      replaces_user_id: alice.id,
      starts_at: new Date(firstStart).toISOString(),
      ends_at: new Date(firstStart + 30 * MINUTE).toISOString(),
    });
    await h.idle();
    await h.idle();
    clock.now = firstStart + 31 * MINUTE;
    await h.idle();
    await h.idle();
    expect(h.fake.dms('U0ALICE01')).toHaveLength(1);
    expect(h.fake.dms('U0CAROL03')).toHaveLength(1);
  });

  it('says how long a shift runs from the real end, or that it runs on, never a made-up time', async () => {
    const { h, clock, firstStart } = await start();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const bob = await chatUser(h.runtime, 'Bob', 'U0BOB0002');
    // Alice alone on a 30-day rotation: her shift runs past anything the notice looks at.
    await dailySchedule(h, firstStart, [alice.id], 30 * 86_400);
    // Bob's 20-day turn ends past the planning look-ahead, but its end is real.
    await dailySchedule(h, firstStart, [bob.id, alice.id], 20 * 86_400);
    clock.now = firstStart + MINUTE;
    await h.idle();
    await h.idle();
    expect(h.fake.dms('U0ALICE01').map((m) => m.text)).toEqual([
      expect.stringMatching(/ for at least 30 days\.$/),
    ]);
    expect(h.fake.dms('U0BOB0002').map((m) => m.text)).toEqual([
      expect.stringContaining(`until ${dayAndTime(firstStart + 20 * 86_400_000)}`),
    ]);
  });

  it('cancels a queued notice when an override replaced the person before the message went out', async () => {
    const { h, clock, firstStart } = await start({ startChat: false });
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const carol = await chatUser(h.runtime, 'Carol', 'U0CAROL03');
    const schedule = await dailySchedule(h, firstStart, [alice.id]);
    clock.now = firstStart + MINUTE;
    await h.worker.tick();
    expect(await noticeStates(h)).toEqual([[alice.id, 'queued', null]]);
    await createOverride(h.runtime.ctx, admin, schedule.id, {
      user_id: carol.id,
      replaces_user_id: alice.id,
      starts_at: new Date(firstStart).toISOString(),
      ends_at: new Date(firstStart + 4 * HOUR).toISOString(),
    });
    h.startChat();
    await h.idle();
    await h.idle();
    expect(h.fake.dms('U0ALICE01')).toHaveLength(0);
    expect(await noticeStates(h)).toContainEqual([alice.id, 'cancelled', 'not_on_call']);
  });

  it('plans the other schedules when one fails, and never waits on a notice a chat job holds', async () => {
    const { h, clock, firstStart } = await start({ startChat: false });
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const bob = await chatUser(h.runtime, 'Bob', 'U0BOB0002');
    const good = await dailySchedule(h, firstStart, [alice.id, bob.id]);
    const broken = await dailySchedule(h, firstStart, [bob.id]);
    // A schedule the maths cannot read (a zone this runtime does not know).
    await h.runtime.sql`update schedules set timezone = 'Mars/Olympus_Mons' where id = ${broken.id}`;
    await h.runtime.sql`delete from shift_notices`;
    clock.now = firstStart + MINUTE;
    await h.worker.tick();
    expect(await noticeStates(h)).toEqual([
      [alice.id, 'queued', null],
      [bob.id, 'planned', null],
      [alice.id, 'planned', null],
    ]);
    expect(h.runtime.logs.messages()).toContain('shift notice planning failed for some schedules');

    // A chat job sending Alice's notice holds its row; planning re-plans around it without waiting.
    const [queued] = await h.runtime.sql<{ id: string }[]>`
      select id from shift_notices where schedule_id = ${good.id} and state = 'queued'`;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = h.runtime.sql.begin(async (tx) => {
      await tx`select id from shift_notices where id = ${queued!.id} for update`;
      locked();
      await released;
    });
    await isLocked;
    try {
      expect(await planAllShiftNotices(h.runtime.ctx)).toBe(3);
    } finally {
      release();
      await holder;
    }
  });
});
