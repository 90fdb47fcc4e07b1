-- Telegram (docs/telegram.md): a personal contact method, and the incident feed to one chat.

-- A Telegram chat id becomes a contact method and a notification method. Only the lists of allowed
-- values grow, so code of the version before keeps working beside this one (a rolling upgrade). The
-- wider checks are added `not valid`: every existing row already passes the narrower check they
-- replace, so there is nothing to prove, and no table is scanned under the exclusive lock that
-- `alter table` holds. New and updated rows are checked as always.
alter table contact_methods drop constraint contact_methods_type_check;
alter table contact_methods add constraint contact_methods_type_check
  check (type in ('email', 'sms', 'voice', 'push', 'telegram')) not valid;
alter table notification_rules drop constraint notification_rules_method_check;
alter table notification_rules add constraint notification_rules_method_check
  check (method in ('chat', 'email', 'sms', 'voice', 'push', 'telegram')) not valid;
alter table page_deliveries drop constraint page_deliveries_method_check;
alter table page_deliveries add constraint page_deliveries_method_check
  check (method in ('email', 'sms', 'voice', 'push', 'telegram')) not valid;

-- The feed's one state row: since when it is on (null: off), when the last message went (pacing holds
-- across restarts and worker processes), and the failure now, if any, so it is logged once per change
-- of state and shown in Settings → Telegram.
create table telegram_feed_state (
  id boolean primary key default true check (id),
  enabled_since timestamptz,
  last_sent_at timestamptz,
  failing_reason text,
  failing_since timestamptz,
  last_error text,
  updated_at timestamptz not null default now()
);
insert into telegram_feed_state (id) values (true);

-- One message of the incident feed per timeline entry it tells of (incident opened, acknowledged,
-- resolved, AI summary written), written by the trigger below in the entry's own transaction: the
-- message exists if and only if the entry committed, whatever the clocks say and however late the
-- commit, and the primary key keeps an entry from being told twice. The row is the timer:
-- `next_attempt_at` carries the backoff and Telegram's `retry_after`.
create table telegram_feed_messages (
  -- No foreign key to timeline_entries: the timeline refuses deletes and truncation (it is immutable),
  -- and a key pointing at it would turn that guard's answer into a foreign-key error. The incident's
  -- key below removes these rows with their incident.
  entry_id uuid primary key,
  -- The entry's own order: messages are sent oldest first, so one incident's arrive in order.
  entry_seq bigint not null,
  incident_id uuid not null,
  event text not null check (event in ('opened', 'acknowledged', 'resolved', 'summary')),
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  message_id bigint,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null
);
-- Added `not valid`, apart from the table: the new table is empty, so there is nothing to check, and
-- incidents is locked only for the moment it takes to record the key.
alter table telegram_feed_messages add constraint telegram_feed_messages_incident_id_fkey
  foreign key (incident_id) references incidents (id) on delete cascade not valid;
create index telegram_feed_messages_pending_idx on telegram_feed_messages (entry_seq)
  where status in ('pending', 'sending');

-- The capture. It runs in the transaction that writes the entry (opening an incident among them, a
-- measured hot path), so it is kept to the least: the `when` clause filters the entry types without
-- calling the function, and the function reads the feed's one state row by its primary key and
-- inserts only while the feed is on.
create function telegram_feed_capture() returns trigger
language plpgsql as $$
begin
  if exists (select 1 from telegram_feed_state where id = true and enabled_since is not null) then
    insert into telegram_feed_messages (entry_id, entry_seq, incident_id, event, next_attempt_at, created_at)
    values (
      new.id, new.seq, new.incident_id,
      case new.type when 'incident_created' then 'opened' when 'ai_summary' then 'summary'
        else new.data ->> 'to' end,
      now(), now()
    )
    on conflict (entry_id) do nothing;
  end if;
  return null;
end;
$$;

create trigger timeline_entries_telegram_feed
  after insert on timeline_entries
  for each row
  when (
    new.type in ('incident_created', 'ai_summary')
    or (new.type = 'status_changed' and new.data ->> 'to' in ('acknowledged', 'resolved'))
  )
  execute function telegram_feed_capture();
