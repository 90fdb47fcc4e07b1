// What a form keeps of what the person typed once a request it sent comes back. Pure, so the rule
// "nothing typed while a request was on its way is lost" has one tested definition.
import type { PostmortemStatus } from '../../lib/postmortem-types';

/** What the person changed in the post-mortem and has not saved, and the version it started from. */
export interface Unsaved {
  content: string;
  status: PostmortemStatus;
  baseVersion: number;
}

/**
 * The editor's unsaved state once `sent` was saved as version `savedVersion`. Unchanged since it was
 * sent: nothing is left to save. Edited while the save was on its way: those edits stay, now based on
 * the saved version, so the next save neither drops them nor is refused as a conflict with itself.
 */
export function unsavedAfterSave(
  current: Unsaved | null,
  sent: Unsaved,
  savedVersion: number,
): Unsaved | null {
  if (current === null) return null;
  if (current.content === sent.content && current.status === sent.status) return null;
  return { ...current, baseVersion: savedVersion };
}

/**
 * A text field's value once what it held (`sent`) was posted: empty for the next entry, unless the
 * person went on typing meanwhile, whose text stays.
 */
export function textAfterSend(current: string, sent: string): string {
  return current === sent ? '' : current;
}
