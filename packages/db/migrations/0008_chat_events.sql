-- Events API deliveries already handled. Slack re-sends an event (same `event_id`) when our answer
-- was slow or failed, up to three times within about five minutes (docs/integrations/slack.md#events); a row here
-- makes the second delivery a no-op. A day of history is far more than the retries span, so older
-- rows are pruned as new ones arrive.
create table chat_events (
  event_id text primary key,
  received_at timestamptz not null default now()
);

create index chat_events_received_at_idx on chat_events (received_at);
