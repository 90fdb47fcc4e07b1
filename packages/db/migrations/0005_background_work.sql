-- Background work (docs/architecture.md#durability; escalation rules in docs/api.md#on-call).
--
-- 1. The outbox relay sleeps until told: a statement-level trigger notifies it when rows arrive, so a
--    channel is opened within milliseconds of the commit rather than at the next poll.
-- 2. Escalation timers are rows: an incident's escalation state and next deadline live here, and a
--    queue job is only a wake-up call. Each fired step is claimed by a unique row, so late jobs,
--    duplicate jobs and several workers notify each step once.

create function outbox_notify() returns trigger
language plpgsql as $$
begin
  perform pg_notify('firebreak_outbox', '');
  return null;
end;
$$;

create trigger outbox_notify_relay
  after insert on outbox
  for each statement execute function outbox_notify();

create table incident_escalations (
  incident_id uuid primary key references incidents (id) on delete cascade,
  policy_id uuid not null references escalation_policies (id) on delete cascade,
  -- The tier to notify next (0-based) and in which round (a policy may repeat its tiers).
  next_tier integer not null default 0,
  round integer not null default 0,
  -- When the next tier is due; null once the escalation has stopped (acknowledged, resolved, done).
  next_due_at timestamptz,
  stopped_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- The reconciler's question: which deadlines have passed?
create index incident_escalations_due_idx on incident_escalations (next_due_at) where next_due_at is not null;

create table escalation_steps (
  incident_id uuid not null references incidents (id) on delete cascade,
  round integer not null,
  tier integer not null,
  due_at timestamptz not null,
  fired_at timestamptz not null,
  targets jsonb not null,
  primary key (incident_id, round, tier)
);
