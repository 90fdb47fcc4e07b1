-- The audit log (docs/api.md#audit-log): who changed which piece of configuration, when, and from what to
-- what. Written by the use case in the same transaction as the change it records, so a change that
-- commits always has its row and one that rolls back never does.

create table audit_log (
  id uuid primary key default gen_random_uuid(),
  -- Insertion order: the list is newest first and its cursor is this number.
  seq bigint generated always as identity unique,
  at timestamptz not null,
  -- No foreign keys: the record must outlive the user, key or entity it names.
  actor_type text not null check (actor_type in ('user', 'api_key', 'system')),
  actor_id uuid,
  actor_name text,
  entity_type text not null,
  -- Text, not uuid: a settings section is named, not numbered.
  entity_id text,
  action text not null,
  before jsonb,
  after jsonb,
  request_id text
);
create index audit_log_at_idx on audit_log (at, seq);
create index audit_log_entity_idx on audit_log (entity_type, entity_id, seq);
create index audit_log_actor_idx on audit_log (actor_id, seq);

-- Append-only: the database itself refuses to change or remove a row, whoever asks, so the log cannot
-- be edited to hide a change (the same guard as timeline_entries in 0002).
create function audit_log_refuse_change() returns trigger
language plpgsql as $$
begin
  raise exception 'the audit log is append-only: % refused', tg_op
    using errcode = 'integrity_constraint_violation';
end;
$$;

create trigger audit_log_immutable
  before update or delete on audit_log
  for each row execute function audit_log_refuse_change();

create trigger audit_log_no_truncate
  before truncate on audit_log
  for each statement execute function audit_log_refuse_change();
