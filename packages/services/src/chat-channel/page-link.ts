import { pageLinkUrl } from '../paging/page-link';
import type { ChatSession } from './session';

/**
 * The one-click acknowledge link for a page sent by a chat job (docs/paging.md#acknowledge-links).
 *
 * The paging key is read through the session's own connection, never a second one from the pool: every
 * chat job holds one pooled connection for its session, so with as many jobs at once as the pool has
 * connections (DB_MAX_OPEN_CONNS at or below the chat worker's concurrency) a job waiting for another
 * would wait for ever, and with it every page. Reading on the session's connection, rather than giving
 * the connection up or reading before the session is taken, keeps the lock held from the first read of
 * the job to its last record, so one chat job per incident still runs at a time.
 */
export async function chatPageLinkUrl(
  session: ChatSession,
  link: { publicUrl: string; userId: string },
): Promise<string> {
  return pageLinkUrl(session.ctx, { ...link, incidentId: session.incidentId }, session.sql);
}
