-- Credential hardening (docs/api.md#authentication): idle sessions end, API keys never outlive their
-- creator, and password guessing is slowed per account.

-- A session ends after SESSION_IDLE_TIMEOUT_MINUTES without a request, as well as at `expires_at`.
-- Written at most once a minute per session, so a busy browser does not turn every request into an
-- update. Existing sessions count as used now: nobody is logged out by the upgrade itself.
alter table sessions add column last_used_at timestamptz not null default now();

-- An API key acts for the user who made it (its role is capped by that user's role at each request).
-- `created_by` stays `on delete set null` so a revoked key's row survives as a record, but a key whose
-- creator is gone can never be used again: deleting a user revokes their keys in the same transaction,
-- and authentication refuses a key without a creator. Keys already left without one are revoked here,
-- so the list does not show them as live.
update api_keys set revoked_at = now() where created_by is null and revoked_at is null;

-- Failed logins per e-mail address, known or not (the same answer either way, so the backoff tells a
-- guesser nothing about which addresses exist). Keyed by the SHA-256 of the lower-cased address: what
-- people type into the e-mail field is sometimes a password, and must not be kept in clear. In
-- PostgreSQL rather than in one process's memory, so the backoff holds across replicas and restarts.
create table login_failures (
  email_digest bytea primary key,
  failures integer not null check (failures > 0),
  last_failed_at timestamptz not null,
  -- Logins for this address are refused (429) until then; null below the free attempts.
  locked_until timestamptz
);
-- For forgetting old failures in bulk (housekeeping).
create index login_failures_last_failed_at_idx on login_failures (last_failed_at);
