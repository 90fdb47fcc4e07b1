-- File attachments on incidents (docs/attachments.md): screenshots, logs, captures people add while
-- they work. The files live in PostgreSQL, not on a disk beside it, so one backup holds the whole
-- record and API replicas need no shared volume (docs/decisions.md#attachments).
--
-- Metadata and bytes are two tables: a listing reads only the small rows, never the files, and a
-- download reads one row of the second table by its key, in slices.
--
-- An upload writes the bytes first and only then takes the incident's row lock to check its status
-- and the per-incident cap and add the metadata, so the lock is never held while megabytes are
-- written. Both happen in one transaction: a refused upload rolls back its bytes with it, and a
-- process that dies between the two leaves nothing behind either.

create table incident_attachments (
  id uuid primary key default gen_random_uuid(),
  -- Cascade: incidents are not deleted today; if they ever are, their files go with them.
  incident_id uuid not null references incidents (id) on delete cascade,
  -- Cleaned by the service (no path, no control characters); at most 255 bytes of UTF-8.
  filename text not null check (octet_length(filename) between 1 and 255),
  -- Sniffed from the bytes, never the type the client declared.
  content_type text not null check (length(content_type) between 1 and 255),
  size integer not null check (size between 1 and 10485760),
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  -- Set null: the file outlives its uploader's account; the name says who it was.
  uploaded_by uuid references users (id) on delete set null,
  uploaded_by_name text not null,
  created_at timestamptz not null default now()
);
-- The listing (newest first) and the per-incident cap both read this.
create index incident_attachments_incident_idx on incident_attachments (incident_id, created_at desc, id desc);

-- The bytes row is inserted before its metadata row, in the same transaction: the reference is
-- checked at commit, and the bytes table does not reference incidents, so writing it takes no lock on
-- the incident's row (a foreign key to it would take a key-share lock, which holds off every other
-- `select … for update` of the incident until commit).
create table incident_attachment_data (
  attachment_id uuid primary key
    references incident_attachments (id) on delete cascade deferrable initially deferred,
  data bytea not null
);
-- Most files (images, archives) are compressed already; uncompressed out-of-line storage also lets a
-- download read the bytes in slices with substring() without decompressing the whole value each time.
alter table incident_attachment_data alter column data set storage external;
