-- Incident openings wake the outbox relay after their commit, not from inside it
-- (docs/decisions.md#incident-opening-in-two-round-trips).
--
-- A transaction that issued NOTIFY holds PostgreSQL's one notification-queue lock from just before its
-- commit until the commit is flushed: such commits run one at a time, each waiting for its own disk
-- flush, instead of sharing flushes as concurrent commits otherwise do. Under a storm of incident
-- openings that lock, not the work, set the pace. A transaction that sets `firebreak.wake` to
-- `after_commit` (for itself only) skips the trigger's NOTIFY and promises to wake the relay once it
-- has committed; the relay's one-second poll covers a wake that never comes.

create or replace function outbox_notify() returns trigger
language plpgsql as $$
begin
  if current_setting('firebreak.wake', true) is distinct from 'after_commit' then
    perform pg_notify('firebreak_outbox', '');
  end if;
  return null;
end;
$$;
