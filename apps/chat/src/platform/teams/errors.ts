import type { ChatProblem, RefusalReason } from '../chat-platform';
import { TeamsApiError } from './api-error';

/**
 * A Microsoft failure in the shared categories (docs/teams.md#failures); undefined for errors that are
 * not Microsoft's. 429 is a rate limit with its `Retry-After`; no answer, 5xx, 408 and a 401 of Graph
 * or the Bot Connector (a token that lapsed early: it is asked for anew) are transient; the rest are
 * refusals, mapped to what the incident logic acts on.
 */
export function classifyTeamsError(error: unknown): ChatProblem | undefined {
  if (!(error instanceof TeamsApiError)) return undefined;
  const { status, code, service } = error;
  if (status === 429) return { kind: 'rate_limited', code, retryAfterS: error.retryAfter ?? 5 };
  if (status === 0 || status >= 500 || status === 408) return { kind: 'transient', code };
  if (status === 401 && service !== 'login') return { kind: 'transient', code };
  return { kind: 'refused', code, reason: refusalReason(error) };
}

function refusalReason({ status, code, service }: TeamsApiError): RefusalReason {
  if (code === 'NameAlreadyExists') return 'name_taken';
  if (service === 'graph' && status === 400 && code === 'BadRequest') return 'invalid_name';
  if (status === 403) return 'not_permitted';
  // A person who left the directory, or never installed the bot: asking again gives the same answer.
  if (service === 'connector' && status === 404 && code === 'NotFound') return 'about_the_person';
  return 'other';
}
