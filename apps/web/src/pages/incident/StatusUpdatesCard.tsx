import type { Incident, StatusUpdateStatus } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { statusPageApi } from '../../lib/api-status-page';
import { formatDateTime } from '../../lib/format';
import { canWrite, useMe } from '../../lib/session';
import '../status-page/status-page.css';

const updateStatusLabel: Record<StatusUpdateStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};
const updateStatuses = Object.keys(updateStatusLabel) as StatusUpdateStatus[];

/**
 * What the public status page says about this incident (docs/status-page.md): its public heading and
 * the updates published so far, and for members a form to publish the next one. Only what is typed
 * here is public; the incident's title, description and alerts never are.
 */
export function StatusUpdatesCard({ incident }: { incident: Incident }) {
  const me = useMe();
  const writer = canWrite(me.data, 'member');
  const queryClient = useQueryClient();
  const updates = useQuery({
    queryKey: ['status-updates', incident.id],
    queryFn: () => statusPageApi.updates(incident.id),
  });
  const latest = updates.data?.updates[0]?.status;
  const [status, setStatus] = useState<StatusUpdateStatus | ''>('');
  const [body, setBody] = useState('');
  const [title, setTitle] = useState('');
  const chosen = status || (latest && latest !== 'resolved' ? latest : 'investigating');
  const publish = useMutation({
    mutationFn: () =>
      statusPageApi.publish(incident.id, {
        status: chosen,
        body: body.trim(),
        ...(title.trim() ? { title: title.trim() } : {}),
      }),
    onSuccess: async () => {
      setBody('');
      setTitle('');
      setStatus('');
      await queryClient.invalidateQueries({ queryKey: ['status-updates', incident.id] });
      await queryClient.invalidateQueries({ queryKey: ['timeline', incident.id] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    publish.mutate();
  };
  const data = updates.data;
  return (
    <section className="card stack" aria-labelledby="status-updates-heading">
      <h2 id="status-updates-heading">Public updates</h2>
      <ErrorMessage error={updates.error} prefix="Could not load the public updates" />
      {data ? (
        <p className="subtle small" style={{ margin: 0 }}>
          {data.updates.length > 0 ? 'Shown on the ' : 'Not public yet; the first update shows it on the '}
          <a href="/status" target="_blank" rel="noreferrer">
            status page
          </a>{' '}
          as “{data.heading}”.
        </p>
      ) : null}
      {data && data.updates.length > 0 ? (
        <ol className="sp-updates" aria-label="Published updates">
          {data.updates.map((update) => (
            <li key={update.id}>
              <strong>{updateStatusLabel[update.status]}</strong>{' '}
              <span className="subtle small">
                {formatDateTime(update.created_at)}
                {update.created_by ? ` · ${update.created_by.name}` : ''}
              </span>
              <p className="sp-body">{update.body}</p>
            </li>
          ))}
        </ol>
      ) : null}
      {writer ? (
        <form className="form" onSubmit={submit} aria-label="Publish a public update">
          <label>
            Status
            <select value={chosen} onChange={(e) => setStatus(e.target.value as StatusUpdateStatus)}>
              {updateStatuses.map((value) => (
                <option key={value} value={value}>
                  {updateStatusLabel[value]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Public message <span className="hint">anyone can read it; name no customer or secret</span>
            <textarea value={body} onChange={(e) => setBody(e.target.value)} required maxLength={5000} />
          </label>
          <label>
            Public heading{' '}
            <span className="hint">
              optional; {data?.title ? `now “${data.title}”` : 'without one, the affected components name it'}
            </span>
            <input value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
          </label>
          <ErrorMessage error={publish.error} prefix="The update was not published" />
          <div className="actions">
            <button type="submit" className="primary" disabled={publish.isPending || !body.trim()}>
              {publish.isPending ? 'Publishing…' : 'Publish update'}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
