-- The public status page (docs/status-page.md): components an admin defines, and the updates people
-- publish about an incident. Only new tables, so replicas still on the previous release are unaffected.

-- A component is shown with a status: the one set by hand (`status`) while it is not null, else the
-- worst of the open incidents whose linked alerts carry every label of `match` (an object of label name
-- to value, never empty: an empty match would follow every incident).
create table status_page_components (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  group_name text,
  match jsonb not null check (jsonb_typeof(match) = 'object' and match <> '{}'::jsonb),
  position integer not null default 0,
  status text check (status in ('operational', 'degraded', 'partial_outage', 'major_outage')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index status_page_components_position_idx on status_page_components (position, name);

-- An incident is public once it has an update: this row is written with its first one. `public_id` is
-- what the page, its JSON and its feed call the incident, so that neither its internal id nor its
-- number (which tells how many incidents the installation had) is published. `title` is the public
-- heading when someone gave one; never the incident's own title.
create table status_page_incidents (
  incident_id uuid primary key references incidents (id) on delete cascade,
  public_id uuid not null unique default gen_random_uuid(),
  title text,
  first_published_at timestamptz not null,
  last_published_at timestamptz not null
);
-- The page lists open incidents and those resolved whose last update is under 7 days old.
create index status_page_incidents_last_published_idx on status_page_incidents (last_published_at desc);

create table status_page_updates (
  id uuid primary key default gen_random_uuid(),
  incident_id uuid not null references status_page_incidents (incident_id) on delete cascade,
  status text not null check (status in ('investigating', 'identified', 'monitoring', 'resolved')),
  body text not null,
  -- Who published it, for the console; never shown publicly. Kept when the user is removed as null.
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null
);
create index status_page_updates_incident_idx on status_page_updates (incident_id, created_at desc, id);
