-- Personal paging (docs/paging.md): the ways a person can be reached, the order they want to be
-- reached in, and one durable row per page to send. The rows are the timers: a queue job is only a
-- wake-up call (docs/architecture.md#timers-are-rows).

create table contact_methods (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  type text not null check (type in ('email', 'sms', 'voice', 'push')),
  -- An e-mail address, an E.164 number, or a push subscription's endpoint.
  address text not null,
  -- A push subscription's `keys` ({p256dh, auth}); null for the other types.
  push_keys jsonb,
  label text,
  verified_at timestamptz,
  -- The verification code is never stored: only its SHA-256 digest, its expiry and the tries used.
  code_digest text,
  code_nonce text,
  code_expires_at timestamptz,
  code_attempts integer not null default 0,
  -- Set when the provider said the address is gone (a push subscription answered 404/410).
  disabled_at timestamptz,
  disabled_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint contact_methods_push_keys_check check ((type = 'push') = (push_keys is not null)),
  unique (user_id, type, address)
);

-- A person's rules, in order. No rows: the default, a chat message when the step fires.
create table notification_rules (
  user_id uuid not null references users (id) on delete cascade,
  position integer not null,
  method text not null check (method in ('chat', 'email', 'sms', 'voice', 'push')),
  delay_minutes integer not null check (delay_minutes between 0 and 1440),
  -- Null: every verified contact method of that type. Deleting the contact method drops the rule.
  contact_method_id uuid references contact_methods (id) on delete cascade,
  primary key (user_id, position)
);

-- One page to send: (escalation step, person, rule, contact method). Written in the transaction that
-- claims the step, so a retried step inserts nothing twice (the unique key).
create table page_deliveries (
  id uuid primary key default gen_random_uuid(),
  incident_id uuid not null references incidents (id) on delete cascade,
  round integer not null,
  tier integer not null,
  user_id uuid not null references users (id) on delete cascade,
  rule_position integer not null,
  method text not null check (method in ('email', 'sms', 'voice', 'push')),
  -- Null once the contact method was deleted: the row stays as the record of a page sent (or not), and
  -- one still pending is skipped, never sent. The address goes with the method (docs/paging.md#history).
  contact_method_id uuid references contact_methods (id) on delete set null,
  status text not null default 'pending'
    check (status in ('pending', 'sending', 'sent', 'failed', 'skipped')),
  due_at timestamptz not null,
  -- When the next try may start; the reconciler's question (pending rows only).
  next_attempt_at timestamptz not null,
  attempts integer not null default 0,
  -- When a worker took the row to send it; a `sending` row much older than any send is taken again.
  claimed_at timestamptz,
  -- The last time a wake-up job was queued for the row, so a lost job is replaced, not repeated.
  woken_at timestamptz,
  wakeups integer not null default 0,
  -- What the person replies by SMS to acknowledge ("ACK 4821"); sms only.
  ack_code text,
  provider_id text,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  unique (incident_id, round, tier, user_id, rule_position, contact_method_id)
);
create index page_deliveries_due_idx on page_deliveries (next_attempt_at) where status = 'pending';
create index page_deliveries_sending_idx on page_deliveries (claimed_at) where status = 'sending';
create index page_deliveries_code_idx on page_deliveries (user_id, ack_code) where ack_code is not null;
-- Deleting a contact method finds its rows through this, rather than reading every page ever sent.
create index page_deliveries_contact_method_idx on page_deliveries (contact_method_id);

-- The key that signs acknowledge links: random, made once by the first process that needs it, never
-- logged. One row.
create table paging_secrets (
  id boolean primary key default true check (id),
  link_key bytea not null,
  created_at timestamptz not null default now()
);

-- Each verification code sent, kept an hour: one contact method gets at most one a minute and a person
-- at most 10 an hour (docs/paging.md#verification), so codes cannot be used to flood a number or an
-- inbox, nor to guess without end. No foreign key to the contact method: removing and adding it again
-- must not reset the count.
create table verification_code_sends (
  user_id uuid not null references users (id) on delete cascade,
  contact_method_id uuid not null,
  sent_at timestamptz not null
);
create index verification_code_sends_user_idx on verification_code_sends (user_id, sent_at);
