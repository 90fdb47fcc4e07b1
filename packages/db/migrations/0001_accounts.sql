-- People and credentials: users (docs/api.md#authentication, #on-call), login sessions, API keys, and the
-- installation's settings. Tokens are stored only as SHA-256 digests: a leaked database must not be
-- a leaked set of credentials.

create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  name text not null,
  role text not null check (role in ('admin', 'member', 'viewer')),
  slack_user_id text,
  auth_source text not null default 'local' check (auth_source in ('local', 'chat')),
  active boolean not null default true,
  -- null for users who cannot log in with a password (created from chat)
  password_hash text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- E-mail is the identity: unique regardless of case (the import lowercases, people type as they like).
create unique index users_email_key on users (lower(email));
create unique index users_slack_user_id_key on users (slack_user_id) where slack_user_id is not null;

create table sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  token_hash bytea not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_user_id_idx on sessions (user_id);
create index sessions_expires_at_idx on sessions (expires_at);

create table api_keys (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  role text not null check (role in ('admin', 'member', 'viewer')),
  token_hash bytea not null unique,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  -- revoked keys are kept (not deleted) so that "who did this" stays answerable
  revoked_at timestamptz
);

-- Installation-wide settings as typed-by-code JSON values, one row per key, so a new setting needs
-- no migration.
create table settings (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null default now()
);
