/** The span the schedule page lists and lets people cover: from now, two weeks ahead. */
export const COVER_DAYS = 14;

export function coverWindow(now: Date): { from: Date; to: Date } {
  // Rounded down to the minute, so the window (and its query key) stays put across re-renders.
  const from = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  return { from, to: new Date(from.getTime() + COVER_DAYS * 86_400_000) };
}

/**
 * The override "Cover" asks for: the shift from now on (a member covers what is still to come; the
 * server refuses a member's override that starts in the past), or nothing for a shift already over.
 */
export function coverSpanOf(
  shift: { starts_at: string; ends_at: string },
  now: Date,
): { starts_at: string; ends_at: string } | undefined {
  if (new Date(shift.ends_at).getTime() <= now.getTime()) return undefined;
  const start = Math.max(new Date(shift.starts_at).getTime(), now.getTime());
  return { starts_at: new Date(start).toISOString(), ends_at: shift.ends_at };
}
