-- Integrations as objects (docs/integrations/keyed-intake.md): each has its own intake key, so a
-- sender is identified by the URL it posts to, and an admin can rotate or disable one sender without
-- touching the others. Heartbeats are integrations whose pings are expected on a schedule; their
-- deadline is a column, fired by the worker's reconciler like an escalation's (docs/architecture.md).
-- Maintenance windows hold back what alerts would otherwise open, without dropping them.

create table integrations (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  type text not null check (type in ('generic', 'alertmanager', 'grafana', 'cloudwatch', 'pagerduty',
                                     'opsgenie', 'heartbeat')),
  enabled boolean not null default true,
  -- The intake key (at least 128 random bits, URL-safe). Kept readable because admins copy the URL
  -- from the console; rotating replaces it, and the old key stops working at once.
  key text not null unique,
  -- Applies when the routing rule that opens an incident names no escalation policy.
  escalation_policy_id uuid references escalation_policies (id) on delete set null,
  -- Added to every alert of the integration (they win over a sender's label of the same name).
  labels jsonb not null default '{}',
  -- Heartbeats only: a ping is expected every interval; missing it by more than the grace raises an
  -- alert of this severity.
  heartbeat_interval_seconds integer check (heartbeat_interval_seconds >= 30),
  heartbeat_grace_seconds integer check (heartbeat_grace_seconds >= 0),
  heartbeat_severity text check (heartbeat_severity in ('critical', 'warning', 'info')),
  heartbeat_last_ping_at timestamptz,
  -- The deadline: last ping + interval + grace; null until the first ping arms it.
  heartbeat_next_due_at timestamptz,
  -- Set when the deadline fired (the missed alert is firing); cleared by the next ping.
  heartbeat_missed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((type = 'heartbeat') = (heartbeat_interval_seconds is not null))
);
-- The reconciler's question: which armed heartbeats are overdue and not yet reported missed?
create index integrations_heartbeat_due_idx on integrations (heartbeat_next_due_at)
  where heartbeat_next_due_at is not null and heartbeat_missed_at is null;

create table maintenance_windows (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  -- {integration_ids?: uuid[], labels?: {name: value}}; empty = every alert.
  match jsonb not null default '{}',
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- Set by the worker once the window has ended and the alerts it held back were routed.
  released_at timestamptz,
  check (ends_at > starts_at)
);
-- The reconciler's question: which windows have ended with alerts not yet released?
create index maintenance_windows_unreleased_idx on maintenance_windows (ends_at) where released_at is null;

-- The integration an alert came through: null for the fixed webhook paths. (`alerts.integration`
-- stays the dedup scope: the fixed path's name, or the integration's id for keyed intake, so rotating
-- a key keeps deduplicating against the same alerts.)
alter table alerts add column integration_id uuid references integrations (id) on delete set null;
create index alerts_integration_received_idx on alerts (integration_id, received_at desc)
  where integration_id is not null;

-- Held back by a maintenance window: stored, no incident, nobody paged. Cleared when the window ends
-- and the alert, still firing, is routed as if it had just arrived.
alter table alerts add column maintenance_window_id uuid references maintenance_windows (id) on delete set null;
create index alerts_maintenance_window_idx on alerts (maintenance_window_id)
  where maintenance_window_id is not null;
