-- Outgoing webhooks (docs/integrations/outgoing-webhooks.md): URLs an admin registers to receive
-- incident events. Each delivery is a row written in the same transaction as the incident change, so
-- an event exists if and only if the change committed; its retry time is a column, and a queue job is
-- only a wake-up call (docs/architecture.md#timers-are-rows).

create table outgoing_webhooks (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  url text not null,
  -- Which events it receives (`incident.created`, …); never empty.
  events text[] not null check (cardinality(events) > 0),
  -- Signs each delivery (HMAC-SHA256) when set. Write-only through the API.
  secret text,
  enabled boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table outgoing_webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  -- Insertion order. One incident's changes are serialised by its row lock, so within one
  -- (webhook, incident) this is the order the events happened: deliveries go out in `seq` order.
  seq bigint generated always as identity,
  -- Deleting a webhook drops its deliveries, pending ones included.
  webhook_id uuid not null references outgoing_webhooks (id) on delete cascade,
  incident_id uuid not null references incidents (id) on delete cascade,
  event text not null,
  -- The exact JSON sent, the incident snapshotted in the transaction of the change: every attempt
  -- sends the same bytes.
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  -- When the next attempt is due; null once delivered or failed.
  next_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  last_duration_ms integer,
  -- When the event happened; retries stop 24 hours after it.
  created_at timestamptz not null default now(),
  delivered_at timestamptz
);
-- The head of each (webhook, incident) line: the oldest pending delivery.
create index outgoing_webhook_deliveries_line_idx
  on outgoing_webhook_deliveries (webhook_id, incident_id, seq) where status = 'pending';
-- The reconciler's question: which deliveries are due?
create index outgoing_webhook_deliveries_due_idx
  on outgoing_webhook_deliveries (next_attempt_at) where status = 'pending';
-- The delivery log, newest first.
create index outgoing_webhook_deliveries_log_idx on outgoing_webhook_deliveries (webhook_id, seq desc);
