import { createHash, randomBytes } from 'node:crypto';
import { calendarFeeds, schedules, users } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import { hashToken } from '../auth/tokens';
import type { ServiceContext } from '../context';
import { loadFinalShifts, type ScheduleShifts } from './final-shifts';
import { notFound } from './write-errors';

/**
 * Calendar feeds (docs/schedules.md#calendar-feeds): a secret URL a calendar application polls without
 * logging in, so the token is the credential. It is 256 random bits with a readable prefix (`fbc_`),
 * stored only as its SHA-256 digest, shown once; a new one replaces the old, and revoking ends it.
 */

export type FeedOwner = calendarFeeds.FeedOwner;

const TOKEN_PREFIX = 'fbc_';
const DAY_MS = 86_400_000;
/** What a feed holds: last week (what just happened) and the next 90 days. */
const FEED_PAST_MS = 7 * DAY_MS;
const FEED_FUTURE_MS = 90 * DAY_MS;

async function assertOwnerExists(ctx: ServiceContext, owner: FeedOwner): Promise<void> {
  if ('userId' in owner) {
    if (!(await users.findUserById(ctx.sql, owner.userId))) throw notFound('user', owner.userId);
  } else if (!(await schedules.findSchedule(ctx.sql, owner.scheduleId))) {
    throw notFound('schedule', owner.scheduleId);
  }
}

const auditView = (row: calendarFeeds.CalendarFeedRow) => ({
  user_id: row.user_id,
  schedule_id: row.schedule_id,
  token_hint: row.token_hint,
});

/** `POST …/calendar-feed`: a new token (the caller builds the URL); the owner's old one stops working. */
export async function createCalendarFeed(
  ctx: ServiceContext,
  owner: FeedOwner,
  origin: ChangeOrigin = systemOrigin,
): Promise<{ token: string; token_hint: string }> {
  await assertOwnerExists(ctx, owner);
  const createdBy = origin.actor.type === 'user' ? origin.actor.id : null;
  if ('scheduleId' in owner && createdBy === null) {
    throw new AppError(
      'forbidden',
      'A schedule’s calendar URL is made by a signed-in admin: it works while they remain an active admin.',
    );
  }
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const hint = token.slice(-4);
  const row = await ctx.sql.begin(async (tx) => {
    const feed = await calendarFeeds.replaceFeed(tx, {
      owner,
      tokenDigest: hashToken(token),
      tokenHint: hint,
      createdBy,
      at: ctx.now(),
    });
    await recordAudit(tx, ctx, {
      origin,
      entity: 'calendar_feed',
      entityId: feed.id,
      action: 'create',
      before: null,
      after: auditView(feed),
    });
    return feed;
  });
  ctx.logger.info({ calendar_feed_id: row.id, token_hint: hint }, 'calendar feed created');
  return { token, token_hint: hint };
}

/** `DELETE …/calendar-feed`: the URL stops working. Idempotent: no feed is no error. */
export async function revokeCalendarFeed(
  ctx: ServiceContext,
  owner: FeedOwner,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  await assertOwnerExists(ctx, owner);
  await ctx.sql.begin(async (tx) => {
    const row = await calendarFeeds.deleteFeed(tx, owner);
    if (!row) return;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'calendar_feed',
      entityId: row.id,
      action: 'revoke',
      before: auditView(row),
      after: null,
    });
  });
}

export interface CalendarEvent {
  /** Stable for the same person's shift starting at the same time, so calendars update, not duplicate. */
  uid: string;
  starts_at: Date;
  ends_at: Date;
  schedule_name: string;
  person_name: string;
  source: 'layer' | 'override';
  layer_name?: string;
}

export interface CalendarContent {
  /** The calendar's name. */
  name: string;
  /** The zone to show times in: the schedule's, or UTC for a person's feed across schedules. */
  timezone: string;
  events: CalendarEvent[];
}

function eventUid(scheduleId: string, person: { user_id: string | null; name: string }, start: Date) {
  const who = person.user_id ?? `name:${person.name}`;
  const digest = createHash('sha256').update(`${scheduleId}|${who}|${start.toISOString()}`).digest('hex');
  return `shift-${digest.slice(0, 32)}@firebreak`;
}

/**
 * How far back the feed looks for the real start of a shift already running when its window opens, in
 * widening steps (a longer look costs more turns, so only the schedules that need it take it).
 */
const LOOK_BACK_MS = [7, 30, 90, 365].map((days) => days * DAY_MS);

/**
 * The final shifts that end inside [from, to), each with its real start even when it began before
 * `from`: a shift's event keeps its start and UID from one poll to the next instead of being clipped to
 * a window start that moves. A shift still running after the longest look back starts there. A calendar
 * cannot show an error, so a schedule of too many turns is left out (or keeps the shorter look back).
 */
async function shiftsWithRealStarts(
  ctx: ServiceContext,
  from: Date,
  to: Date,
  ids: string[] | undefined,
): Promise<ScheduleShifts[]> {
  const byId = new Map<string, ScheduleShifts>();
  let pending = ids;
  for (const lookBack of LOOK_BACK_MS) {
    const since = new Date(from.getTime() - lookBack);
    const found = await loadFinalShifts(ctx.sql, since, to, pending, { skipTooMany: true });
    for (const entry of found) byId.set(entry.schedule.id, entry);
    // Still clipped: the shift running at `from` started at or before `since`; look further back.
    pending = found
      .filter(({ shifts }) => {
        const first = shifts[0];
        return first?.start.getTime() === since.getTime() && first.end.getTime() > from.getTime();
      })
      .map(({ schedule }) => schedule.id);
    if (pending.length === 0) break;
  }
  return [...byId.values()].map(({ schedule, shifts }) => ({
    schedule,
    shifts: shifts.filter((shift) => shift.end.getTime() > from.getTime()),
  }));
}

/**
 * Whether the person behind a feed may still see it: a person's feed while they are active; a
 * schedule's feed while the admin who made it is an active admin (an admin who leaves or is demoted
 * takes the schedule URLs they handed out with them; another admin makes new ones).
 */
async function feedStillGranted(ctx: ServiceContext, feed: calendarFeeds.CalendarFeedRow): Promise<boolean> {
  const holderId = feed.user_id ?? feed.created_by;
  if (!holderId) return false;
  const holder = await users.findUserById(ctx.sql, holderId);
  if (!holder?.active) return false;
  return feed.user_id !== null || holder.role === 'admin';
}

/** `GET /api/v1/calendar/{token}.ics`: undefined for a token that is unknown or revoked. */
export async function readCalendarFeed(
  ctx: ServiceContext,
  token: string,
): Promise<CalendarContent | undefined> {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  const feed = await calendarFeeds.findFeedByDigest(ctx.sql, hashToken(token));
  if (!feed || !(await feedStillGranted(ctx, feed))) return undefined;
  const now = ctx.now().getTime();
  const from = new Date(now - FEED_PAST_MS);
  const to = new Date(now + FEED_FUTURE_MS);
  const found = await shiftsWithRealStarts(ctx, from, to, feed.schedule_id ? [feed.schedule_id] : undefined);
  const events = found.flatMap(({ schedule, shifts }) =>
    shifts
      .filter((s) => feed.user_id === null || s.person.user_id === feed.user_id)
      .map((s) => ({
        uid: eventUid(schedule.id, s.person, s.start),
        starts_at: s.start,
        ends_at: s.end,
        schedule_name: schedule.name,
        person_name: s.person.name,
        source: s.source,
        ...(s.layer_name !== undefined ? { layer_name: s.layer_name } : {}),
      })),
  );
  if (feed.schedule_id) {
    const schedule = await schedules.findSchedule(ctx.sql, feed.schedule_id);
    if (!schedule) return undefined;
    return { name: `On call: ${schedule.name}`, timezone: schedule.timezone, events };
  }
  const user = await users.findUserById(ctx.sql, feed.user_id!);
  if (!user) return undefined;
  return { name: `On call: ${user.name}`, timezone: 'UTC', events };
}
