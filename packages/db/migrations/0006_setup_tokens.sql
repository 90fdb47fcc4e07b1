-- Setup tokens (docs/api.md#authentication, docs/import-oncall.md). A user created by the Grafana OnCall import gets a random password
-- nobody knows and one of these, shown once in the import's answer; `POST /api/v1/auth/setup` trades it
-- for a password of the user's own. Like sessions and API keys, only the token's SHA-256 digest is
-- kept, so a leaked database holds no usable token. A token works once (using it deletes the row, in
-- the same transaction that sets the password) and until `expires_at`, which the service sets 7 days
-- after issue: long enough to reach people after a migration weekend, short enough that a token lying
-- in a chat history or an e-mail goes stale.

create table setup_tokens (
  token_hash bytea primary key,
  -- Deleting the user deletes their pending token.
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  check (expires_at > created_at)
);
create index setup_tokens_user_id_idx on setup_tokens (user_id);
-- For removing expired tokens in bulk.
create index setup_tokens_expires_at_idx on setup_tokens (expires_at);
