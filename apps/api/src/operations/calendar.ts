import { defineOperation, errorAnswers } from '@firebreak/http';
import { z } from 'zod';

/**
 * The calendar feed itself (docs/schedules.md#calendar-feeds). Public: calendar applications cannot log
 * in, so the token in the URL is the credential; anything but a well-formed token is simply not found.
 */
export const calendarOperations = {
  feed: defineOperation({
    method: 'get',
    path: '/api/v1/calendar/{feed}',
    access: 'public',
    summary: 'A calendar feed (iCalendar)',
    description:
      'The URL that `POST /api/v1/users/me/calendar-feed` or `POST /api/v1/schedules/{id}/calendar-feed` gave: `{feed}` is `<token>.ics`. Shifts from 7 days ago to 90 days ahead, one event per shift with a stable UID. The token never appears in logs.',
    request: {
      params: z.object({
        feed: z
          .string()
          .regex(/^fbc_[A-Za-z0-9_-]{43}\.ics$/, { error: 'No such calendar.' })
          .meta({ description: '`<token>.ics`' }),
      }),
    },
    responses: {
      200: { description: 'The calendar', content: { 'text/calendar': { schema: { type: 'string' } } } },
      ...errorAnswers(404),
    },
  }),
};
