-- Outbound chat (docs/integrations/slack.md#posting): what the chat adapter has already told the chat service,
-- so that retried and duplicate jobs never post twice, and the incident card can be edited in place.

-- The incident card's message (its `ts` in the incident's channel), a digest of what it shows now, and
-- the topic last set: a job edits the card or the topic only when what they would show has changed.
alter table incidents
  add column chat_card_ts text,
  add column chat_card_digest text,
  add column chat_topic text;

-- One row per timeline entry the channel has heard (or that was refused for good, with `error`), so a
-- retry posts only what is missing, in `seq` order. The card counts as the post of `incident_created`.
-- No foreign key to timeline_entries: entries are never deleted (their trigger refuses it), and a
-- reference would only make TRUNCATE fail on the reference instead of on that trigger's clear refusal.
create table chat_posts (
  entry_id uuid primary key,
  incident_id uuid not null references incidents (id),
  channel_id text not null,
  -- Null when the chat service refused the post for good; `error` says why.
  message_ts text,
  error text,
  posted_at timestamptz not null
);
-- Pacing: at most one post per second per channel, measured from the channel's last post.
create index chat_posts_channel_idx on chat_posts (channel_id, posted_at desc);

-- Escalation direct messages, one per entry and person: a retried notice pages nobody twice.
create table chat_direct_messages (
  entry_id uuid not null,
  slack_user_id text not null,
  message_ts text,
  error text,
  sent_at timestamptz not null,
  primary key (entry_id, slack_user_id)
);
