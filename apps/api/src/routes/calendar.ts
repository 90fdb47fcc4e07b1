import type { Operations } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import { readCalendarFeed } from '@firebreak/services';
import { renderCalendar } from '../calendar-ics';
import type { ApiDeps } from '../deps';
import { calendarOperations as op } from '../operations/calendar';

/**
 * The calendar feeds' one public route: the token is the credential. The request log keeps only the
 * path's first characters (`loggablePath`), and an unknown or revoked token is a 404 that does not echo it.
 */
export function addCalendarRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  ops.add(op.feed, async (c, { params }) => {
    const content = await readCalendarFeed(ctx, params.feed.slice(0, -'.ics'.length));
    if (!content) throw new AppError('not_found', 'No such calendar.');
    return c.body(renderCalendar(content, ctx.now()), 200, {
      'content-type': 'text/calendar; charset=utf-8',
      'cache-control': 'private, no-store',
    });
  });
}
