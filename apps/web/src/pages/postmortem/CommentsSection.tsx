import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import type { PostmortemComment } from '../../lib/postmortem-types';
import { canWrite, useMe } from '../../lib/session';
import { refocusIfDropped } from './refocus';
import { textAfterSend } from './unsaved-edits';

/** The review's discussion, oldest first; people delete their own comments, admins anyone's. */
export function CommentsSection({ incidentId }: { incidentId: string }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const [body, setBody] = useState('');
  const bodyField = useRef<HTMLTextAreaElement>(null);
  const comments = useQuery({
    queryKey: ['postmortem-comments', incidentId],
    queryFn: () => api.postmortemComments(incidentId),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['postmortem-comments', incidentId] });
  const add = useMutation({
    mutationFn: (text: string) => api.addPostmortemComment(incidentId, text.trim()),
    onSuccess: async (_comment, sent) => {
      setBody((current) => textAfterSend(current, sent));
      refocusIfDropped(bodyField.current);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (commentId: string) => api.deletePostmortemComment(incidentId, commentId),
    onSuccess: refresh,
  });
  const mayDelete = (comment: PostmortemComment) =>
    me.data?.role === 'admin' || (me.data?.user?.id !== undefined && comment.author.id === me.data.user.id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending || !body.trim()) return;
    add.mutate(body);
  };
  const list = comments.data?.items ?? [];
  return (
    <section className="card stack" aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      <ErrorMessage error={comments.error} prefix="Could not load the comments" />
      {comments.data && list.length === 0 ? <p className="subtle small">No comments yet.</p> : null}
      {list.length > 0 ? (
        <ol className="timeline" aria-label="Comments on the post-mortem">
          {list.map((comment) => (
            <li key={comment.id}>
              <time dateTime={comment.created_at}>{formatDateTime(comment.created_at)}</time>
              <div>
                <div className="entry-type">{comment.author.name}</div>
                <div className="entry-text">{comment.body}</div>
                {mayDelete(comment) ? (
                  <button
                    type="button"
                    className="link small"
                    disabled={remove.isPending}
                    onClick={() => {
                      if (window.confirm('Delete this comment?')) remove.mutate(comment.id);
                    }}
                    aria-label={`Delete the comment of ${comment.author.name}, ${formatDateTime(comment.created_at)}`}
                  >
                    Delete
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      <ErrorMessage error={remove.error} prefix="The comment was not deleted" />
      {canWrite(me.data, 'member') && me.data?.user ? (
        <form className="form" onSubmit={submit} aria-label="Add a comment">
          <label>
            Add a comment
            <textarea
              ref={bodyField}
              value={body}
              onChange={(e) => setBody(e.target.value)}
              required
              maxLength={10_000}
            />
          </label>
          <ErrorMessage error={add.error} prefix="The comment was not added" />
          <div className="actions">
            <button type="submit" className="primary" disabled={add.isPending || !body.trim()}>
              {add.isPending ? 'Adding…' : 'Add comment'}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
