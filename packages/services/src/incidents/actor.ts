import type { Actor } from '@firebreak/schema';
import type { Principal } from '../auth/principal';

/** Who the timeline names for an API request: the user, or the API key (and its creator's id). */
export function actorFromPrincipal(principal: Principal): Actor {
  if (principal.kind === 'api_key') {
    return {
      type: 'user',
      ...(principal.user ? { id: principal.user.id } : {}),
      name: `API key "${principal.apiKeyName ?? 'unnamed'}"`,
    };
  }
  return principal.user
    ? { type: 'user', id: principal.user.id, name: principal.user.name }
    : { type: 'user' };
}
