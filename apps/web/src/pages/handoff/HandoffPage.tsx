import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Markdown } from '../../components/Markdown';
import { ApiError, api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { LIVE_INTERVAL_MS } from '../../lib/live';
import { canWrite, useMe } from '../../lib/session';
import { defaultWindow, windowBody } from './handoff-window';

/**
 * A shift hand-off digest (docs/api.md#ai): what happened in a window, written by the AI in the
 * background. The digest's id goes in the URL (`?digest=`), so a reload or a shared link shows it again.
 */
export function HandoffPage() {
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const digestId = params.get('digest') ?? '';
  const [range, setRange] = useState(defaultWindow);
  const [problem, setProblem] = useState('');
  const settings = useQuery({ queryKey: ['settings'], queryFn: api.settings, staleTime: 60_000 });
  const request = useMutation({ mutationFn: api.requestHandoffDigest });
  const digest = useQuery({
    queryKey: ['handoff-digest', digestId],
    queryFn: () => api.handoffDigest(digestId),
    enabled: digestId !== '',
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? LIVE_INTERVAL_MS : false),
  });
  const aiOff =
    settings.data?.ai.configured === false ||
    (request.error instanceof ApiError && request.error.code === 'ai_not_configured');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (request.isPending) return;
    const body = windowBody(range.since, range.until);
    setProblem('problem' in body ? body.problem : '');
    // Given to `mutate`, not to the mutation: an answer that comes after the person left the page does
    // not put `?digest=` on the address of the page they went to.
    if (!('problem' in body)) request.mutate(body, { onSuccess: ({ id }) => setParams({ digest: id }) });
  };
  const field = (key: 'since' | 'until', label: string) => (
    <label>
      {label}
      <input
        type="datetime-local"
        value={range[key]}
        required
        onChange={(e) => setRange((r) => ({ ...r, [key]: e.target.value }))}
      />
    </label>
  );
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Shift hand-off</h1>
          <p className="subtle small">
            A digest of the incidents of a shift for whoever takes over: what is still open, what was done,
            what to watch.
          </p>
        </div>
      </div>
      <div className="stack">
        {aiOff ? (
          <div role="alert" className="alert-box alert-info">
            AI is off for this installation, so digests cannot be written. An admin turns it on by configuring
            an AI provider (<code>AI_PROVIDER</code>, see the AI section of the documentation).
          </div>
        ) : null}
        {canWrite(me.data, 'member') ? (
          <form className="card stack" onSubmit={submit} aria-label="Hand-off window">
            <div className="form-row">
              {field('since', 'Start')}
              {field('until', 'End')}
              <button
                type="submit"
                className="primary"
                style={{ alignSelf: 'end', justifySelf: 'start' }}
                disabled={request.isPending || aiOff}
              >
                {request.isPending ? 'Requesting…' : 'Write the digest'}
              </button>
            </div>
            {problem ? (
              <div role="alert" className="alert-box alert-error">
                {problem}
              </div>
            ) : null}
            {aiOff ? null : <ErrorMessage error={request.error} prefix="The digest was not requested" />}
          </form>
        ) : null}
        {digestId ? (
          <section className="card stack" aria-labelledby="digest-heading">
            <h2 id="digest-heading">Hand-off digest</h2>
            <ErrorMessage error={digest.error} prefix="Could not load the digest" />
            {digest.isPending ? <p className="subtle small">Loading…</p> : null}
            {digest.data ? (
              <p className="subtle small" style={{ margin: 0 }}>
                {formatDateTime(digest.data.since)} – {formatDateTime(digest.data.until)} · requested{' '}
                {formatDateTime(digest.data.created_at)}
              </p>
            ) : null}
            {digest.data?.status === 'pending' ? (
              <p role="status" className="alert-box alert-info">
                The AI is writing the digest; it appears here when it is ready.
              </p>
            ) : null}
            {digest.data?.status === 'failed' ? (
              <ErrorMessage
                error={new Error(digest.data.error ?? 'no reason given')}
                prefix="The digest failed"
              />
            ) : null}
            {digest.data?.status === 'done' ? (
              <Markdown label="Digest">{digest.data.content ?? ''}</Markdown>
            ) : null}
          </section>
        ) : null}
      </div>
    </>
  );
}
