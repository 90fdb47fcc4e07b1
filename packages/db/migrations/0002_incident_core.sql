-- The incident core (docs/api.md#incidents, #timeline, #alerts, #routing-rules): routing rules,
-- incidents, their immutable timeline, alerts, and the transactional outbox through which every piece of
-- background work leaves a transaction (docs/architecture.md#transactional-outbox).

create table routing_rules (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  priority integer not null,
  enabled boolean not null default true,
  match_criteria jsonb not null default '{}',
  actions jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- Evaluation order: ascending priority, ties oldest first.
create index routing_rules_order_idx on routing_rules (priority, created_at) where enabled;

-- A fresh installation opens incidents for critical and warning alerts (docs/api.md#routing-rules).
insert into routing_rules (name, priority, match_criteria, actions)
values ('Default: critical and warning alerts open incidents', 1000,
        '{"severity": ["critical", "warning"]}', '{"create_incident": true}');

create table incidents (
  id uuid primary key default gen_random_uuid(),
  -- Human-facing sequential number (INC-42); a sequence never hands out the same value twice.
  number integer generated always as identity unique,
  title text not null,
  description text not null default '',
  severity text not null check (severity in ('critical', 'high', 'medium', 'low')),
  status text not null default 'triggered' check (status in ('triggered', 'acknowledged', 'resolved')),
  source text not null check (source in ('manual', 'alert', 'chat')),
  commander_id uuid references users (id) on delete set null,
  -- The escalation policy tables come with escalation; the foreign key is added there.
  escalation_policy_id uuid,
  routing_rule_id uuid references routing_rules (id) on delete set null,
  chat_channel_id text,
  chat_channel_name text,
  all_alerts_resolved boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  acknowledged_at timestamptz,
  resolved_at timestamptz,
  mttr_seconds integer,
  check ((status = 'resolved') = (resolved_at is not null))
);
-- The list is newest first, optionally by status or severity; `number` follows creation order.
create index incidents_status_number_idx on incidents (status, number desc);
create index incidents_severity_number_idx on incidents (severity, number desc);
create unique index incidents_chat_channel_id_key on incidents (chat_channel_id) where chat_channel_id is not null;

create table timeline_entries (
  id uuid primary key default gen_random_uuid(),
  -- Insertion order, so entries written in the same millisecond still read back in order.
  seq bigint generated always as identity unique,
  incident_id uuid not null references incidents (id) on delete restrict,
  type text not null,
  actor_type text not null check (actor_type in ('user', 'system', 'chat', 'ai')),
  actor_id uuid,
  actor_name text,
  data jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index timeline_entries_incident_idx on timeline_entries (incident_id, seq);

-- The timeline is immutable (docs/api.md#timeline): the database itself refuses to change or remove an entry,
-- whoever asks.
create function timeline_entries_refuse_change() returns trigger
language plpgsql as $$
begin
  raise exception 'timeline entries are immutable: % refused', tg_op
    using errcode = 'integrity_constraint_violation';
end;
$$;

create trigger timeline_entries_immutable
  before update or delete on timeline_entries
  for each row execute function timeline_entries_refuse_change();

create trigger timeline_entries_no_truncate
  before truncate on timeline_entries
  for each statement execute function timeline_entries_refuse_change();

create table alerts (
  id uuid primary key default gen_random_uuid(),
  -- Which webhook received it (generic, alertmanager, grafana, cloudwatch).
  integration text not null,
  -- The sender's name for itself (the generic webhook's `source` field).
  source text,
  -- external_id or fingerprint: the identity the sender gives the alert; null = never deduplicated.
  dedup_key text,
  external_id text,
  fingerprint text,
  title text not null,
  description text,
  severity text not null default 'warning' check (severity in ('critical', 'warning', 'info')),
  status text not null default 'firing' check (status in ('firing', 'resolved')),
  labels jsonb not null default '{}',
  annotations jsonb not null default '{}',
  started_at timestamptz not null,
  ended_at timestamptz,
  received_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  incident_id uuid references incidents (id) on delete set null,
  routing_rule_id uuid references routing_rules (id) on delete set null,
  suppressed boolean not null default false
);
create unique index alerts_dedup_key on alerts (integration, dedup_key) where dedup_key is not null;
create index alerts_received_at_idx on alerts (received_at desc, id desc);
create index alerts_incident_id_idx on alerts (incident_id) where incident_id is not null;

-- Transactional outbox: a use case that needs background work writes a row here in the same
-- transaction as its state change; a relay moves pending rows to the job queue. While the queue's
-- store is down the rows simply wait, so nothing decided in a committed transaction is lost.
create table outbox (
  id bigint generated always as identity primary key,
  job_name text not null,
  payload jsonb not null,
  -- Rows with the same key (usually an incident id) are relayed in id order.
  ordering_key text,
  -- For jobs that must not run before a given time.
  available_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  attempts integer not null default 0,
  last_error text
);
create index outbox_pending_idx on outbox (id) where sent_at is null;
