-- Unavailability in schedules (docs/schedules.md#unavailability): a person who takes part in a
-- schedule's layers says they cannot be on call for a range (leave, a doctor's appointment). Wherever a
-- layer's rotation gives them the turn inside the range, the turn goes to the next participant of that
-- layer who is available. Additive: code that does not know the table keeps computing the layers as
-- before, so a rolling upgrade only shows the skip once every process runs the new code.
create table schedule_unavailability (
  id uuid primary key default gen_random_uuid(),
  schedule_id uuid not null references schedules (id) on delete cascade,
  -- Cascade: a range belongs to a person; once they are gone they take no turns anyway.
  user_id uuid not null references users (id) on delete cascade,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint schedule_unavailability_range_check check (ends_at > starts_at)
);
-- The on-call maths read a schedule's ranges overlapping a window, as for overrides.
create index schedule_unavailability_window_idx on schedule_unavailability (schedule_id, ends_at, starts_at);
create index schedule_unavailability_user_id_idx on schedule_unavailability (user_id);
