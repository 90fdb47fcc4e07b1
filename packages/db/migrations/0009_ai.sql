-- AI features (docs/ai.md): each request is a row whose status says what became of
-- it, so a provider failure is visible (status `failed`, with the reason) instead of silently missing,
-- and results are written only when complete, never half.

create table ai_requests (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('summary', 'postmortem', 'handoff_digest')),
  incident_id uuid references incidents (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'done', 'failed')),
  error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index ai_requests_incident_idx on ai_requests (incident_id) where incident_id is not null;

create table handoff_digests (
  id uuid primary key references ai_requests (id) on delete cascade,
  since timestamptz not null,
  until timestamptz not null,
  content text,
  check (since < until)
);

-- One current draft per incident; a redraft replaces it (the timeline keeps a `postmortem_drafted`
-- entry for each draft).
create table postmortems (
  incident_id uuid primary key references incidents (id) on delete cascade,
  request_id uuid references ai_requests (id) on delete set null,
  content text not null,
  generated_at timestamptz not null
);
