-- The channel name a `conversations.create` call asked for whose answer is not recorded yet. Set just
-- before the call, cleared when the channel is stored. A retry that finds it set and gets `name_taken`
-- for that same name knows the earlier call most likely succeeded and its answer was lost (the process
-- died mid-call), and adopts that channel instead of making `…-2` (apps/chat open-channel.ts).
alter table incidents add column chat_channel_creating text;
