import type { SettingsView } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api, type FollowupSettings } from '../../lib/api';

/** The API's limit: a week. */
const MAX_MINUTES = 10_080;

/**
 * After the incident (docs/api.md#settings): whether resolving an incident asks the AI for a
 * post-mortem draft, and from how long an incident on (0: every one); and whether people's messages in
 * an incident's channel are copied into its timeline. The switches save at once, the minutes with Save.
 */
export function FollowupSection({ settings, admin }: { settings: SettingsView; admin: boolean }) {
  const queryClient = useQueryClient();
  const minutes = settings.postmortem_auto_draft_min_minutes;
  const [threshold, setThreshold] = useState(String(minutes ?? 0));
  const save = useMutation({
    mutationFn: (changes: FollowupSettings) => api.setFollowupSettings(changes),
    onSuccess: (view) => queryClient.setQueryData(['settings'], view),
  });
  const disabled = !admin || save.isPending;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ postmortem_auto_draft_min_minutes: Number(threshold) });
  };
  return (
    <section className="card stack" aria-labelledby="followup-heading">
      <h2 id="followup-heading">After the incident</h2>
      <label className="inline">
        <input
          type="checkbox"
          checked={minutes !== null}
          disabled={disabled}
          onChange={(e) =>
            save.mutate({
              postmortem_auto_draft_min_minutes: e.target.checked ? Number(threshold) || 0 : null,
            })
          }
        />
        Draft a post-mortem with AI when an incident is resolved
      </label>
      {minutes !== null ? (
        <form className="form-row" onSubmit={submit} aria-label="Automatic post-mortem drafts">
          <label>
            Only for incidents that lasted at least{' '}
            <span className="hint">minutes; 0 drafts one for every resolved incident</span>
            <input
              type="number"
              min={0}
              max={MAX_MINUTES}
              step={1}
              required
              disabled={disabled}
              value={threshold}
              onChange={(e) => setThreshold(e.target.value)}
            />
          </label>
          {admin ? (
            <button type="submit" style={{ alignSelf: 'end' }} disabled={disabled}>
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
          ) : null}
        </form>
      ) : (
        <p className="subtle small" style={{ margin: 0 }}>
          Never automatically: people ask for a draft on the post-mortem page.
        </p>
      )}
      <label className="inline">
        <input
          type="checkbox"
          checked={settings.chat_timeline_sync}
          disabled={disabled}
          onChange={(e) => save.mutate({ chat_timeline_sync: e.target.checked })}
        />
        Copy chat messages into the timeline
      </label>
      <p className="subtle small" style={{ margin: 0 }}>
        What people write in an incident's chat channel becomes part of its timeline (bots' messages, edits
        and deletions are left out), so the post-mortem and the AI see the whole conversation.
      </p>
      <ErrorMessage error={save.error} prefix="The setting was not changed" />
    </section>
  );
}
