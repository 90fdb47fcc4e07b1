/**
 * Someone else saved first, so this save was refused (docs/postmortems.md#versions-no-silent-overwrites).
 * Loading their version does not throw the person's text away: it stays beside the editor (KeptText).
 */
export function ConflictNotice({ onLoadLatest, loading }: { onLoadLatest: () => void; loading: boolean }) {
  return (
    <div role="alert" className="alert-box alert-warn stack">
      <span>
        Someone else saved this post-mortem while you were editing, so your save was refused to keep their
        changes. Your text is still in the editor. Load the latest version to merge: your text stays beside it
        to copy from.
      </span>
      <div className="actions">
        <button type="button" disabled={loading} onClick={onLoadLatest}>
          {loading ? 'Loading…' : 'Load the latest version (your text stays on the page)'}
        </button>
      </div>
    </div>
  );
}

/** The person's own text after a conflict made them load someone else's: there until they let it go. */
export function KeptText({ text, onDismiss }: { text: string; onDismiss: () => void }) {
  return (
    <div className="alert-box alert-info stack">
      <label>
        Your text before you loaded the latest version (copy what you need into the editor)
        <textarea className="mono markdown-source" readOnly value={text} rows={10} />
      </label>
      <div className="actions">
        <button type="button" onClick={onDismiss}>
          I have what I need: remove my old text
        </button>
      </div>
    </div>
  );
}
