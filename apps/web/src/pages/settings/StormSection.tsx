import type { SettingsView } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api, type StormSettings } from '../../lib/api';

/**
 * Storm mode (docs/api.md#storm-mode): beyond a number of incidents from alerts paging one escalation
 * policy within a few minutes, further alerts that would page it join that policy's storm incident
 * until it calms. The switch saves at
 * once; the three numbers are saved together, and the server's message is shown for a refused one.
 */
export function StormSection({ settings, admin }: { settings: SettingsView; admin: boolean }) {
  const queryClient = useQueryClient();
  const [numbers, setNumbers] = useState({
    threshold: String(settings.storm_threshold_incidents),
    window: String(settings.storm_window_minutes),
    calm: String(settings.storm_calm_minutes),
  });
  const save = useMutation({
    mutationFn: (changes: StormSettings) => api.setStormSettings(changes),
    onSuccess: (view) => queryClient.setQueryData(['settings'], view),
  });
  const disabled = !admin || save.isPending;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      storm_threshold_incidents: Number(numbers.threshold),
      storm_window_minutes: Number(numbers.window),
      storm_calm_minutes: Number(numbers.calm),
    });
  };
  const field = (key: keyof typeof numbers, label: string, hint: string) => (
    <label>
      {label} <span className="hint">{hint}</span>
      <input
        type="number"
        min={1}
        required
        disabled={disabled}
        value={numbers[key]}
        onChange={(e) => setNumbers((n) => ({ ...n, [key]: e.target.value }))}
      />
    </label>
  );
  return (
    <section className="card stack" aria-labelledby="storm-heading">
      <h2 id="storm-heading">Alert storms</h2>
      <p className="subtle small" style={{ margin: 0 }}>
        When more incidents than the threshold paging one escalation policy opened from alerts within the
        window, further alerts that would page that policy are linked to its storm incident instead (one
        channel, one page) until no alert joined it for the calm time, or it is resolved. Other policies'
        teams are paged as usual. Manual incidents are never taken in.
      </p>
      <label>
        <input
          type="checkbox"
          checked={settings.storm_mode_enabled}
          disabled={disabled}
          onChange={(e) => save.mutate({ storm_mode_enabled: e.target.checked })}
        />{' '}
        Group alert storms into one incident
      </label>
      <form className="form-row" onSubmit={submit} aria-label="Storm thresholds">
        {field('threshold', 'Threshold', 'incidents from alerts')}
        {field('window', 'Window', 'minutes')}
        {field('calm', 'Calm after', 'minutes without an alert')}
        {admin ? (
          <button type="submit" style={{ alignSelf: 'end' }} disabled={disabled}>
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
        ) : null}
      </form>
      <ErrorMessage error={save.error} prefix="The storm settings were not changed" />
    </section>
  );
}
