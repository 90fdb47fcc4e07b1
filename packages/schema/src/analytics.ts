import { z } from 'zod';
import { IncidentSeverity, IncidentSource } from './incident';

/**
 * Analytics (docs/api.md#analytics, docs/analytics.md): numbers over the incidents, pages and alerts of
 * a window. The window is bounded so that one request cannot ask the database for years of rows.
 */

export const MAX_ANALYTICS_WINDOW_DAYS = 366;
export const DEFAULT_ANALYTICS_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

// A `+` left unescaped in a query string arrives as a space (`?from=2026-03-29T09:00:00+02:00`). A bare
// date means that day's 00:00 UTC, the boundary of the daily series.
const WindowEdge = z.preprocess(
  (value) => (typeof value === 'string' ? value.replace(' ', '+') : value),
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: 'must be an ISO 8601 date (2026-11-01) or a time with a zone (2026-11-01T00:00:00Z)',
  }),
);

/** The instant a window edge names: a bare date is 00:00 UTC. */
export const windowEdgeInstant = (value: string): Date =>
  new Date(value.length === 10 ? `${value}T00:00:00Z` : value);

/** Alert label names are 1 to 256 characters (docs/integrations/alert-webhooks.md); no control characters. */
export const LabelName = z
  .string()
  .min(1, 'a label name is 1 to 256 characters')
  .max(256, 'a label name is 1 to 256 characters')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'a label name has no control characters');

/** `GET /api/v1/analytics`: `to` defaults to now, `from` to 30 days before `to`; at most 366 days. */
export const AnalyticsQuery = z
  .object({
    from: WindowEdge.optional(),
    to: WindowEdge.optional(),
    group_by: LabelName.optional(),
  })
  .refine((q) => !q.from || !q.to || windowEdgeInstant(q.to) > windowEdgeInstant(q.from), {
    message: 'to must be after from',
    path: ['to'],
  })
  .refine(
    (q) =>
      !q.from ||
      !q.to ||
      windowEdgeInstant(q.to).getTime() - windowEdgeInstant(q.from).getTime() <=
        MAX_ANALYTICS_WINDOW_DAYS * DAY_MS,
    { message: `the window is at most ${MAX_ANALYTICS_WINDOW_DAYS} days`, path: ['to'] },
  );
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

const Percentiles = z.object({
  /** Whole seconds; null when no incident of the window counts. */
  p50: z.number().int().nullable(),
  p90: z.number().int().nullable(),
  /** How many incidents the percentiles are over. */
  count: z.number().int(),
});

export const AnalyticsDay = z.object({
  /** A UTC day, `YYYY-MM-DD`. */
  date: z.string(),
  /** Incidents opened that day, and how many of them were acknowledged and resolved (by now). */
  incidents: z.number().int(),
  acknowledged: z.number().int(),
  resolved: z.number().int(),
  mtta_p50_seconds: z.number().int().nullable(),
  mttr_p50_seconds: z.number().int().nullable(),
  pages: z.number().int(),
  out_of_hours_pages: z.number().int(),
  /** Alerts whose current occurrence started that day. */
  alerts: z.number().int(),
});
export type AnalyticsDay = z.infer<typeof AnalyticsDay>;

export const PagedPerson = z.object({
  /** Null for someone paged by name only (an imported rotation member without an account). */
  user_id: z.uuid().nullable(),
  name: z.string(),
  pages: z.number().int(),
  out_of_hours: z.number().int(),
});
export type PagedPerson = z.infer<typeof PagedPerson>;

export const NoisyAlert = z.object({
  title: z.string(),
  /** The dedup key all the title's alerts share; null when they have several (one per host…) or none. */
  dedup_key: z.string().nullable(),
  alerts: z.number().int(),
  incidents: z.number().int(),
  suppressed: z.number().int(),
  auto_resolved: z.number().int(),
});
export type NoisyAlert = z.infer<typeof NoisyAlert>;

export const AnalyticsView = z.object({
  from: z.string(),
  to: z.string(),
  group_by: z.string().nullable(),
  mtta_seconds: Percentiles,
  mttr_seconds: Percentiles,
  incidents: z.object({
    total: z.number().int(),
    by_severity: z.array(z.object({ severity: IncidentSeverity, count: z.number().int() })),
    by_source: z.array(z.object({ source: IncidentSource, count: z.number().int() })),
    /** Empty without `group_by`; `value` null for incidents without the label. */
    by_label: z.array(z.object({ value: z.string().nullable(), count: z.number().int() })),
  }),
  pages: z.object({
    total: z.number().int(),
    out_of_hours: z.number().int(),
    by_person: z.array(PagedPerson),
  }),
  noisiest_alerts: z.array(NoisyAlert),
  daily: z.array(AnalyticsDay),
});
export type AnalyticsView = z.infer<typeof AnalyticsView>;
