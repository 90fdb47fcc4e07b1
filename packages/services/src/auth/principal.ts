import type { Role } from '@firebreak/schema';

/** Who is making a request, as the authorisation middleware and the use cases see it. */
export interface Principal {
  kind: 'session' | 'api_key';
  role: Role;
  /** The user behind a session; for an API key, the key's creator (a key without one never authenticates). */
  user: { id: string; name: string; email: string } | null;
  /** The API key's id, for `kind: 'api_key'`. */
  apiKeyId?: string;
  /** The API key's name, for `kind: 'api_key'`. */
  apiKeyName?: string;
}
