import {
  type AnalyticsQuery,
  AppError,
  DEFAULT_ANALYTICS_WINDOW_DAYS,
  MAX_ANALYTICS_WINDOW_DAYS,
  windowEdgeInstant,
} from '@firebreak/schema';

const DAY_MS = 86_400_000;

/**
 * The window of an analytics request: `to` defaults to now, `from` to 30 days before `to`. The schema
 * checks the pair when both are given; a default can still make an empty or too-long window (a `from`
 * in the future, or a year and more ago), which is refused the same way.
 */
export function analyticsWindow(query: AnalyticsQuery, now: Date): { from: Date; to: Date } {
  const to = query.to ? windowEdgeInstant(query.to) : now;
  const from = query.from
    ? windowEdgeInstant(query.from)
    : new Date(to.getTime() - DEFAULT_ANALYTICS_WINDOW_DAYS * DAY_MS);
  const span = to.getTime() - from.getTime();
  if (span <= 0 || span > MAX_ANALYTICS_WINDOW_DAYS * DAY_MS) {
    throw new AppError('validation_failed', 'The request is not valid.', [
      {
        path: 'to',
        message:
          span <= 0 ? 'to must be after from' : `the window is at most ${MAX_ANALYTICS_WINDOW_DAYS} days`,
      },
    ]);
  }
  return { from, to };
}
