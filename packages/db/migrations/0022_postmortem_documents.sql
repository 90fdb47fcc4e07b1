-- Post-mortem documents (docs/postmortems.md). Until now a post-mortem was only the latest AI draft;
-- people then copied it elsewhere to finish it. The row becomes the document people edit, review and
-- publish, and the AI draft becomes one input to it: its own columns keep the latest generated text,
-- which fills the document only while nobody has edited it (docs/decisions.md#post-mortems).

-- Templates: the `## ` headings of a template are the sections a document starts with and the sections
-- an AI draft fills. Exactly one is the default (the partial unique index), used when a document is
-- created without naming one.
create table postmortem_templates (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  content text not null,
  is_default boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index postmortem_templates_one_default_idx on postmortem_templates ((true)) where is_default;

insert into postmortem_templates (name, content, is_default) values (
  'Blameless post-mortem',
  E'## Summary\n\n_What happened, in two or three sentences. Describe systems and decisions, not people at fault._\n\n'
  '## Impact\n\n_Who and what was affected, for how long, and how badly._\n\n'
  '## Timeline\n\n_The moments that mattered, with their times (UTC)._\n\n'
  '## Root cause\n\n_The conditions that made this possible. Ask "how", not "who"._\n\n'
  '## What went well\n\n_What helped us notice, understand and recover._\n\n'
  '## What went wrong\n\n_What slowed us down or made it worse._\n\n'
  '## Action items\n\n_Concrete changes, each with an owner and a due date (tracked below the document)._\n\n'
  '## Lessons learned\n\n_What we know now that we did not know before._\n',
  true
);

-- The document: one per incident, as before. `version` grows by one on every write, so a save based on
-- an older version is refused instead of silently overwriting a colleague's text. `content_source`
-- says who wrote the current text last: a person (`human`), an AI draft (`ai`) or a template fill.
--
-- Additive only: during a rolling upgrade, replicas still on the previous release read and write this
-- table as it was (they insert `(incident_id, request_id, content, generated_at)` and read those
-- columns back). So `request_id` and `generated_at` stay, with their constraints, beside the new
-- `ai_request_id` and `ai_draft_generated_at`, and this release keeps them consistent: `request_id`
-- follows `ai_request_id`, and `generated_at` is when `content` was last written. They are kept only for
-- replicas still on the previous release and can be dropped in a later migration.
alter table postmortems
  add column status text not null default 'draft' check (status in ('draft', 'in_review', 'published')),
  -- Set null: deleting a template must not take the documents started from it.
  add column template_id uuid references postmortem_templates (id) on delete set null,
  add column version integer not null default 1 check (version >= 1),
  add column content_source text not null default 'ai' check (content_source in ('human', 'ai', 'template')),
  -- The request whose draft landed last, and that draft as generated (also once applied, so the UI can
  -- offer it again).
  add column ai_request_id uuid references ai_requests (id) on delete set null,
  add column ai_draft_content text,
  add column ai_draft_generated_at timestamptz,
  add column ai_draft_applied boolean not null default false,
  add column created_at timestamptz not null default now(),
  add column updated_at timestamptz not null default now(),
  add column updated_by uuid references users (id) on delete set null;

-- The existing drafts become documents written by the AI, untouched since.
update postmortems
set ai_request_id = request_id, ai_draft_content = content, ai_draft_generated_at = generated_at,
    ai_draft_applied = true, created_at = generated_at, updated_at = generated_at;

-- A draft requested but never landed (pending, or failed) now has a document to land in: the default
-- template's, so the AI draft will fill it, and GET answers the request's state instead of 404.
insert into postmortems (incident_id, content, generated_at, template_id, content_source, created_at, updated_at)
select r.incident_id, t.content, min(r.created_at), t.id, 'template', min(r.created_at), min(r.created_at)
from ai_requests r cross join postmortem_templates t
where r.kind = 'postmortem' and r.incident_id is not null and t.is_default
  and not exists (select 1 from postmortems p where p.incident_id = r.incident_id)
group by r.incident_id, t.content, t.id;

-- Follow-up work of an incident. Belongs to the incident, not to the document: items may be noted
-- before anyone writes the text. The owner may leave; the item stays, unowned.
create table postmortem_action_items (
  id uuid primary key default gen_random_uuid(),
  incident_id uuid not null references incidents (id) on delete cascade,
  title text not null check (length(title) between 1 and 500),
  owner_id uuid references users (id) on delete set null,
  due_date date,
  status text not null default 'open' check (status in ('open', 'done')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz,
  check ((status = 'done') = (completed_at is not null))
);
create index postmortem_action_items_incident_idx on postmortem_action_items (incident_id, created_at, id);
-- The list across incidents (`GET /api/v1/action-items`): by status, then due date; and per owner.
create index postmortem_action_items_status_due_idx on postmortem_action_items (status, due_date, created_at, id);
create index postmortem_action_items_owner_idx on postmortem_action_items (owner_id, status) where owner_id is not null;

-- Review comments on the document. The author's name is kept, so a comment outlives its author's account.
create table postmortem_comments (
  id uuid primary key default gen_random_uuid(),
  incident_id uuid not null references incidents (id) on delete cascade,
  author_id uuid references users (id) on delete set null,
  author_name text not null,
  body text not null check (length(body) between 1 and 10000),
  created_at timestamptz not null default now()
);
create index postmortem_comments_incident_idx on postmortem_comments (incident_id, created_at, id);
