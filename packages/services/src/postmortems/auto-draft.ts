import type { FollowupSettings } from '../settings/followup-settings';

/**
 * Whether resolving an incident asks for an AI post-mortem draft (docs/postmortems.md#automatic-drafts):
 * when it lasted at least `postmortem_auto_draft_min_minutes` (opened to resolved); never when that is
 * null. 0, the default, drafts every resolved incident.
 */
export function wantsAutoDraft(
  settings: Pick<FollowupSettings, 'postmortem_auto_draft_min_minutes'>,
  openedAt: Date,
  resolvedAt: Date,
): boolean {
  const minMinutes = settings.postmortem_auto_draft_min_minutes;
  if (minMinutes === null) return false;
  return resolvedAt.getTime() - openedAt.getTime() >= minMinutes * 60_000;
}
