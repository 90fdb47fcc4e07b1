-- Chat recovery (docs/integrations/slack.md#recovery): once relayed, chat jobs live only in Redis, so a
-- Redis restarted empty loses them. A reconciler in the chat app looks every few seconds for recent
-- incidents whose channel has not heard everything and queues the job that completes it. These
-- indexes keep that pass cheap however long the tables grow.

-- Whether an incident's chat work reached the queue only moments ago (its job is then still at work,
-- not lost). The outbox is never pruned, so this lookup must not scan it.
create index outbox_ordering_key_idx on outbox (ordering_key, sent_at) where ordering_key is not null;

-- The pass looks only at incidents still open or resolved in the last few days.
create index incidents_resolved_at_idx on incidents (resolved_at);
