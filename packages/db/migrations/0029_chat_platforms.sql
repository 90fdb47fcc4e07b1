-- Chat platforms side by side (docs/teams.md, docs/decisions.md#chat-platforms): an incident gets a
-- channel on each configured chat platform (Slack, Microsoft Teams), and each platform hears every
-- timeline entry, page and invite once. What was kept on the incident row for its one (Slack) channel
-- moves to one row per incident and platform; the records of what a channel heard are keyed by
-- platform too.
--
-- Not a rolling-upgrade migration: chat apps and workers of the previous release read the incident's
-- old columns and would open a second Slack channel. Stop them before starting this release's
-- (docs/decisions.md#chat-platforms); API and ingest replicas of the previous release keep working,
-- showing incidents without their channel until they are replaced.

-- 1. The incident's channel on each platform. `creating` is the name a channel creation asked for whose
--    answer is not recorded yet (see 0010); `card_id` the incident card's message (Slack's `ts`, a Teams
--    activity id), `card_digest` what it shows now and `topic` the topic last set, so they are only
--    sent again when the incident changes them.
create table chat_channels (
  incident_id uuid not null references incidents (id) on delete cascade,
  platform text not null check (platform in ('slack', 'teams')),
  channel_id text,
  channel_name text,
  creating text,
  card_id text,
  card_digest text,
  topic text,
  primary key (incident_id, platform)
);
-- A command typed in a channel names its incident by the channel.
create unique index chat_channels_channel_key on chat_channels (platform, channel_id)
  where channel_id is not null;

insert into chat_channels (incident_id, platform, channel_id, channel_name, creating, card_id, card_digest, topic)
select id, 'slack', chat_channel_id, chat_channel_name, chat_channel_creating, chat_card_ts, chat_card_digest,
       chat_topic
from incidents
where chat_channel_id is not null or chat_channel_creating is not null;

drop index incidents_chat_channel_id_key;
alter table incidents
  drop column chat_channel_id,
  drop column chat_channel_name,
  drop column chat_channel_creating,
  drop column chat_card_ts,
  drop column chat_card_digest,
  drop column chat_topic;

-- 2. What each platform's channel heard, and the pages and invites each platform sent. Existing rows
--    are Slack's. The chat user id is the platform's own (a Slack member id, a Teams user's Entra
--    object id).
alter table chat_posts add column platform text not null default 'slack'
  check (platform in ('slack', 'teams'));
alter table chat_posts alter column platform drop default;
alter table chat_posts drop constraint chat_posts_pkey, add primary key (entry_id, platform);

alter table chat_direct_messages add column platform text not null default 'slack'
  check (platform in ('slack', 'teams'));
alter table chat_direct_messages alter column platform drop default;
alter table chat_direct_messages rename column slack_user_id to chat_user_id;
alter table chat_direct_messages drop constraint chat_direct_messages_pkey,
  add primary key (entry_id, platform, chat_user_id);

alter table chat_channel_invites add column platform text not null default 'slack'
  check (platform in ('slack', 'teams'));
alter table chat_channel_invites alter column platform drop default;
alter table chat_channel_invites rename column slack_user_id to chat_user_id;
alter table chat_channel_invites drop constraint chat_channel_invites_pkey,
  add primary key (incident_id, platform, chat_user_id);

-- 3. A person's Teams identity: their Microsoft Entra object id (a GUID), which the Bot Connector sends
--    as `from.aadObjectId` and which a direct message is addressed to.
alter table users add column teams_user_id text;
create unique index users_teams_user_id_key on users (teams_user_id) where teams_user_id is not null;
