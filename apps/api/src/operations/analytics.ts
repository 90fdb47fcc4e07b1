import { answer, defineOperation, errorAnswers } from '@firebreak/http';
import { AnalyticsQuery, AnalyticsView } from '@firebreak/schema';

const window =
  '`from` and `to` are ISO 8601 (a bare date is 00:00 UTC); `to` defaults to now, `from` to 30 days before it; the window is at most 366 days. `group_by` names an alert label to count incidents by. Each process computes two requests at a time (the others wait), and a computation that takes over 10 s is stopped: 503 `service_unavailable`. What each number means: docs/analytics.md.';

/** Numbers over a window's incidents, pages and alerts; anyone who may read incidents may read them. */
export const analyticsOperations = {
  view: defineOperation({
    method: 'get',
    path: '/api/v1/analytics',
    access: 'viewer',
    summary: 'MTTA, MTTR, incident counts, pages and the noisiest alerts of a window',
    description: window,
    request: { query: AnalyticsQuery },
    responses: { 200: answer('The numbers', AnalyticsView), ...errorAnswers(400, 503) },
  }),
  csv: defineOperation({
    method: 'get',
    path: '/api/v1/analytics.csv',
    access: 'viewer',
    summary: 'The daily series of the analytics as CSV',
    description: `${window} One row per UTC day, after a header row, as an attachment.`,
    request: { query: AnalyticsQuery },
    responses: {
      200: { description: 'The daily series', content: { 'text/csv': { schema: { type: 'string' } } } },
      ...errorAnswers(400, 503),
    },
  }),
};
