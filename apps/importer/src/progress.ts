import type { OnCallProgress } from '@firebreak/services';

/**
 * Pages read per resource, on one line per resource that rewrites itself (`users: 3 pages, 250
 * read`), so a slow or throttled OnCall import shows it is alive. For terminals only: `--json` and
 * output piped into a file stay clean.
 */
export interface ProgressLine {
  report(progress: OnCallProgress): void;
  /** Ends the last line. */
  finish(): void;
}

const CLEAR_LINE = '\r\u001b[2K';

/** `source` names who asks to wait, e.g. `Opsgenie`. */
export function createProgressLine(write: (text: string) => void, source = 'OnCall'): ProgressLine {
  let resource: string | undefined;
  let pages = 0;
  let items = 0;
  const show = (extra = '') => {
    const unit = pages === 1 ? 'page' : 'pages';
    write(`${CLEAR_LINE}Reading ${resource}: ${pages} ${unit}, ${items} read${extra}`);
  };
  return {
    report(progress) {
      if (progress.resource !== resource) {
        if (resource !== undefined) write('\n');
        resource = progress.resource;
        pages = 0;
        items = 0;
      }
      if (progress.kind === 'page') {
        pages = progress.page;
        items = progress.items;
        show();
      } else {
        show(` (${source} asks to wait ${progress.waitSeconds} s)`);
      }
    },
    finish() {
      if (resource !== undefined) write('\n');
      resource = undefined;
    },
  };
}
