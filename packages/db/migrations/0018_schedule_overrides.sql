-- Schedule overrides, calendar feeds and shift notices (docs/schedules.md).

-- An override puts one person on call for a window, above every layer of its schedule. With
-- replaces_user_id it takes only that person's time inside the window; without, the whole window.
-- Where overrides overlap, they apply in creation order, so the newest one decides (created_at, id).
create table schedule_overrides (
  id uuid primary key default gen_random_uuid(),
  schedule_id uuid not null references schedules (id) on delete cascade,
  -- Cascade: an override is a promise by a person; without them it means nothing, and leaving it
  -- would hand the window to nobody.
  user_id uuid not null references users (id) on delete cascade,
  replaces_user_id uuid references users (id) on delete cascade,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- The source's id of an imported override, so an import run again adds no second copy.
  external_id text,
  constraint schedule_overrides_window_check check (ends_at > starts_at),
  unique (schedule_id, external_id)
);
create index schedule_overrides_window_idx on schedule_overrides (schedule_id, ends_at, starts_at);
create index schedule_overrides_user_id_idx on schedule_overrides (user_id);

-- A secret calendar URL: of one user's shifts, or of one schedule's. Only the SHA-256 digest of the
-- token is stored, looked up by equality; the hint (its last characters) tells people which one they
-- hold. One feed per owner: creating a new one replaces the old.
create table calendar_feeds (
  id uuid primary key default gen_random_uuid(),
  token_digest bytea not null unique,
  token_hint text not null,
  user_id uuid unique references users (id) on delete cascade,
  schedule_id uuid unique references schedules (id) on delete cascade,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint calendar_feeds_owner_check check ((user_id is null) <> (schedule_id is null))
);

-- Whether the user gets a chat direct message when one of their shifts starts.
alter table users add column shift_notices boolean not null default true;

-- One row per upcoming shift start (a timer: docs/architecture.md#timers-are-rows). The worker plans
-- rows ahead from the final shifts; its reconciler claims due rows `for update skip locked`, so each
-- notice is queued once whatever the number of workers, and a notice whose chat job Redis lost is
-- queued again while its shift lasts. `sent_at` is written by the chat job under the row's lock, so
-- a retried or duplicated job sends nothing twice.
create table shift_notices (
  id uuid primary key default gen_random_uuid(),
  schedule_id uuid not null references schedules (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  state text not null default 'planned'
    check (state in ('planned', 'queued', 'sent', 'skipped', 'cancelled', 'failed')),
  queued_at timestamptz,
  sent_at timestamptz,
  -- Why a notice was skipped or failed (shift over, notices off, no chat id, the chat error code).
  reason text,
  unique (schedule_id, user_id, starts_at)
);
create index shift_notices_open_idx on shift_notices (starts_at) where state in ('planned', 'queued');
