-- On-call configuration (docs/api.md#on-call): schedules made of rotating layers, and escalation
-- policies made of ordered tiers. Escalation state (who was paged, the next deadline) is not here: it
-- comes with the escalation engine. The import (docs/import-oncall.md) writes these same tables, so every
-- reference to a person keeps a display name beside the optional user id: an imported participant may
-- have no account, and deleting a user must not erase who was on the rotation.

create table schedules (
  id uuid primary key default gen_random_uuid(),
  -- Unique because people (and the import's conflict rule) tell schedules apart by name.
  name text not null unique,
  -- An IANA zone name; hand-overs of day-aligned rotations follow its wall clock (DST included).
  timezone text not null default 'UTC',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- A layer is one rotation: participants take turns of `shift_duration_seconds` from `rotation_start`.
-- Layers are rewritten whole when a schedule changes, so they have no identity worth keeping apart
-- from their schedule.
create table schedule_layers (
  id uuid primary key default gen_random_uuid(),
  schedule_id uuid not null references schedules (id) on delete cascade,
  name text not null,
  -- Precedence: where layers overlap, the highest order_index with someone on call wins. Unique, so
  -- there is never a tie to break.
  order_index integer not null check (order_index >= 0),
  rotation_start timestamptz not null,
  shift_duration_seconds integer not null check (shift_duration_seconds > 0),
  -- How the rotation is described to people; the maths follow shift_duration_seconds.
  rotation_type text not null check (rotation_type in ('weekly', 'daily')),
  unique (schedule_id, order_index)
);

-- Rows rather than a jsonb list: the user reference gets a real foreign key, so deleting a user nulls
-- it (keeping the name) instead of leaving an id that points nowhere, and "which rotations is this user
-- on" is an indexed query.
create table schedule_participants (
  layer_id uuid not null references schedule_layers (id) on delete cascade,
  -- Rotation order, 0-based; the same user may take several turns in one cycle.
  position integer not null check (position >= 0),
  user_id uuid references users (id) on delete set null,
  -- The display name; for a linked user it is refreshed from the user when the user is deleted.
  name text not null,
  primary key (layer_id, position)
);
create index schedule_participants_user_id_idx on schedule_participants (user_id) where user_id is not null;

create table escalation_policies (
  id uuid primary key default gen_random_uuid(),
  -- Unique for the same reason as schedule names (the import's conflict rule is by name).
  name text not null unique,
  description text not null default '',
  enabled boolean not null default true,
  -- How many more times the whole list of tiers runs after the last tier timed out unacknowledged.
  repeat integer not null default 0 check (repeat >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Tiers in notification order. A tier targets either named users (escalation_tier_users) or whoever
-- is on call in a schedule at the time it fires.
create table escalation_tiers (
  id uuid primary key default gen_random_uuid(),
  policy_id uuid not null references escalation_policies (id) on delete cascade,
  position integer not null check (position >= 0),
  target_type text not null check (target_type in ('users', 'schedule')),
  -- Restrict: a schedule a policy pages cannot vanish from under it; the API answers 409 and names
  -- the policies to change first.
  schedule_id uuid references schedules (id) on delete restrict,
  timeout_seconds integer not null check (timeout_seconds >= 1),
  unique (policy_id, position),
  constraint escalation_tiers_target_check check ((target_type = 'schedule') = (schedule_id is not null))
);
create index escalation_tiers_schedule_id_idx on escalation_tiers (schedule_id) where schedule_id is not null;

-- Rows for the same reason as schedule_participants: a deleted user leaves the name behind.
create table escalation_tier_users (
  tier_id uuid not null references escalation_tiers (id) on delete cascade,
  position integer not null check (position >= 0),
  user_id uuid references users (id) on delete set null,
  name text not null,
  primary key (tier_id, position)
);
create index escalation_tier_users_user_id_idx on escalation_tier_users (user_id) where user_id is not null;

-- The incident core left this column without its foreign key until the table existed. Deleting a
-- policy stops the escalation of the incidents that used it rather than refusing the deletion.
alter table incidents
  add constraint incidents_escalation_policy_id_fkey
  foreign key (escalation_policy_id) references escalation_policies (id) on delete set null;
create index incidents_escalation_policy_id_idx on incidents (escalation_policy_id)
  where escalation_policy_id is not null;
