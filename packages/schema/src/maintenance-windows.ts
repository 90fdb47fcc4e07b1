import { z } from 'zod';

/**
 * Maintenance windows (docs/api.md#maintenance-windows): while one is active, the alerts it matches are
 * stored but open nothing; when it ends, those still firing are routed as if they had just arrived.
 */

// A zone is required so that a timestamp means the same instant whatever the server's time zone.
const Timestamp = z.iso.datetime({
  offset: true,
  error: 'Must be an ISO 8601 timestamp with a time zone, e.g. 2026-05-04T12:00:00Z.',
});

/**
 * Which alerts a window holds back: every given criterion must match; `{}` takes every alert. Strict,
 * and an empty `integration_ids` is refused: a typo must not widen a window to every alert.
 */
export const MaintenanceMatch = z
  .object({
    integration_ids: z.array(z.uuid()).min(1).max(50).optional(),
    labels: z
      .record(z.string().min(1).max(256), z.string().max(4096))
      .refine((labels) => Object.keys(labels).length <= 50, 'at most 50 labels')
      .optional(),
  })
  .strict();
export type MaintenanceMatch = z.infer<typeof MaintenanceMatch>;

export const MaintenanceWindowStatus = z.enum(['scheduled', 'active', 'ended']);
export type MaintenanceWindowStatus = z.infer<typeof MaintenanceWindowStatus>;

/**
 * The longest a window may last. Any member can schedule one, and `{}` holds every alert back: without
 * a bound, one request could silence paging for good. Longer silences are an admin's decision, and
 * visible where the sender is configured: disabling its integration, or a routing rule that suppresses.
 */
export const MAX_MAINTENANCE_WINDOW_DAYS = 7;
const MAX_WINDOW_MS = MAX_MAINTENANCE_WINDOW_DAYS * 24 * 60 * 60 * 1000;

export const CreateMaintenanceWindowInput = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(200),
    starts_at: Timestamp,
    ends_at: Timestamp,
    match: MaintenanceMatch.default({}),
  })
  .refine((input) => Date.parse(input.ends_at) > Date.parse(input.starts_at), {
    message: 'ends_at must be after starts_at',
    path: ['ends_at'],
  })
  .refine((input) => Date.parse(input.ends_at) - Date.parse(input.starts_at) <= MAX_WINDOW_MS, {
    message: `a window lasts at most ${MAX_MAINTENANCE_WINDOW_DAYS} days, so that no alert is held back for good; to silence a sender for longer, disable its integration or add a routing rule that suppresses its alerts`,
    path: ['ends_at'],
  });
export type CreateMaintenanceWindowInput = z.infer<typeof CreateMaintenanceWindowInput>;

export const ListMaintenanceWindowsQuery = z.object({ status: MaintenanceWindowStatus.optional() });
export type ListMaintenanceWindowsQuery = z.infer<typeof ListMaintenanceWindowsQuery>;

export const MaintenanceWindow = z.object({
  id: z.uuid(),
  name: z.string(),
  starts_at: z.iso.datetime({ offset: true }),
  ends_at: z.iso.datetime({ offset: true }),
  match: MaintenanceMatch,
  status: MaintenanceWindowStatus,
  /** The user who scheduled it (an API key's creator); null once that user is removed. */
  created_by: z.uuid().nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export type MaintenanceWindow = z.infer<typeof MaintenanceWindow>;
