-- Chat that keeps up (docs/chat.md): invites to the incident channel, people's messages on the
-- timeline, and questions asked of the bot.
--
-- 1. Who was invited to an incident's channel. The people paged and the commander are invited once
--    each; a row records the invite (or the chat service's refusal about that person, so it is not
--    asked again on every chat job of the incident; a refusal about the installation is not recorded,
--    so a fixed app invites later).
create table chat_channel_invites (
  incident_id uuid not null references incidents (id) on delete cascade,
  slack_user_id text not null,
  channel_id text not null,
  -- Null when the invite went through (already_in_channel counts as through).
  error text,
  invited_at timestamptz not null,
  primary key (incident_id, slack_user_id)
);

-- 2. A message posted in an incident channel becomes a `chat_message` entry when `chat_timeline_sync`
--    is on. The chat service re-sends an event it thinks timed out, and a message can reach us under
--    two event ids (`message` and `app_mention`): its `ts` is unique within the channel, so one entry per
--    incident and ts.
create unique index timeline_entries_chat_message_ts_idx on timeline_entries (incident_id, (data ->> 'ts'))
  where type = 'chat_message';

-- 3. Questions asked of the bot (`app_mention`). The answer, whichever it is (the AI's, "AI is off", a
--    failure, "only in incident channels"), is written here and posted in the question's thread by a
--    chat job, which records the reply so a retried job posts it once. With AI on, the question is
--    an AI request of kind `chat_answer`; its incident is kept here (not on the request), so several
--    questions about one incident may be pending at once.
alter table ai_requests drop constraint ai_requests_kind_check;
alter table ai_requests add constraint ai_requests_kind_check
  check (kind in ('summary', 'postmortem', 'handoff_digest', 'chat_answer'));

create table chat_questions (
  id uuid primary key default gen_random_uuid(),
  incident_id uuid references incidents (id) on delete cascade,
  request_id uuid references ai_requests (id) on delete set null,
  channel_id text not null,
  -- The thread the answer goes to: the question's own ts, or the thread it was asked in.
  thread_ts text not null,
  -- The question's own ts: a redelivered mention asks once.
  message_ts text not null,
  chat_user_id text,
  question text not null,
  answer text,
  reply_ts text,
  reply_error text,
  created_at timestamptz not null,
  replied_at timestamptz,
  unique (channel_id, message_ts)
);
create index chat_questions_request_idx on chat_questions (request_id) where request_id is not null;
-- At most a few AI answers are pending per incident (docs/chat.md#questions): counted when one is asked.
create index chat_questions_unanswered_idx on chat_questions (incident_id) where answer is null;
