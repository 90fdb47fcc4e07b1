import type { apiKeys, users } from '@firebreak/db';
import type { ApiKey, User } from '@firebreak/schema';

export function presentUser(row: users.UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    slack_user_id: row.slack_user_id,
    auth_source: row.auth_source,
    active: row.active,
    created_at: row.created_at.toISOString(),
  };
}

export function presentApiKey(row: apiKeys.ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
  };
}
