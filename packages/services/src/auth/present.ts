import type { apiKeys, users } from '@firebreak/db';
import type { ApiKey, User } from '@firebreak/schema';

export function presentUser(row: users.UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    slack_user_id: row.slack_user_id,
    teams_user_id: row.teams_user_id,
    auth_source: row.auth_source,
    active: row.active,
    shift_notices: row.shift_notices,
    created_at: row.created_at.toISOString(),
  };
}

export function presentApiKey(row: apiKeys.ApiKeyWithCreator): ApiKey {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    created_by:
      row.created_by && row.creator_name !== null
        ? {
            id: row.created_by,
            name: row.creator_name,
            email: row.creator_email ?? '',
            role: row.creator_role ?? 'viewer',
            active: row.creator_active ?? false,
          }
        : null,
  };
}
