import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { isMissingEndpoint } from '../../lib/missing';
import { CopyButton } from '../integrations/CopyButton';

/**
 * A secret calendar address of the person's shifts for their calendar app to subscribe to. The
 * server keeps only a digest of it, so the address is shown once, when made; making a new one
 * replaces the old, and revoking stops it.
 */
export function CalendarFeedSection() {
  const [url, setUrl] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const create = useMutation({
    mutationFn: api.createCalendarFeed,
    onSuccess: (feed) => {
      // Without PUBLIC_URL the server answers a path; a calendar app needs the whole address.
      setUrl(new URL(feed.url, window.location.origin).href);
      setSaid('');
    },
  });
  const revoke = useMutation({
    mutationFn: api.revokeCalendarFeed,
    onSuccess: () => {
      setUrl(null);
      setSaid('Your calendar link is revoked: calendars subscribed to it stop updating.');
    },
  });
  const missing = isMissingEndpoint(create.error) || isMissingEndpoint(revoke.error);
  return (
    <section className="card stack" aria-labelledby="calendar-heading">
      <h2 id="calendar-heading">Calendar</h2>
      <p className="subtle small">
        Subscribe to your shifts from your calendar app. Anyone with the link can read your shifts, so keep it
        to yourself; a new link replaces the old one.
      </p>
      {url ? (
        <div className="stack">
          <label>
            Your calendar link <span className="hint">shown once; copy it now</span>
            <input className="mono" readOnly value={url} onFocus={(e) => e.target.select()} />
          </label>
          <CopyButton text={url} label="Copy the calendar link" />
        </div>
      ) : null}
      {missing ? (
        <p className="alert-box alert-info">This server does not offer calendar links.</p>
      ) : (
        <ErrorMessage error={create.error ?? revoke.error} prefix="The calendar link was not changed" />
      )}
      <p role="status" className="small">
        {said}
      </p>
      <div className="actions">
        <button type="button" className="primary" disabled={create.isPending} onClick={() => create.mutate()}>
          {url ? 'Make a new link' : 'Get a calendar link'}
        </button>
        <button
          type="button"
          className="danger"
          disabled={revoke.isPending}
          onClick={() => {
            if (window.confirm('Revoke your calendar link? Calendars subscribed to it stop updating.')) {
              revoke.mutate();
            }
          }}
        >
          Revoke link
        </button>
      </div>
    </section>
  );
}
