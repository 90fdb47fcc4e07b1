-- At most one pending AI request per incident and kind (docs/ai.md#requests): a second POST while one is
-- pending answers the pending one instead of paying the provider twice. Duplicates already pending are
-- closed first, the newest of each kept, so that the index can be built; the worker skips requests that
-- are no longer pending.
update ai_requests r
set status = 'failed', error = 'superseded by a newer request of the same kind', finished_at = now()
where r.status = 'pending'
  and r.incident_id is not null
  and exists (
    select 1 from ai_requests n
    where n.incident_id = r.incident_id and n.kind = r.kind and n.status = 'pending'
      and (n.created_at, n.id) > (r.created_at, r.id)
  );

create unique index ai_requests_one_pending_idx on ai_requests (incident_id, kind)
  where status = 'pending' and incident_id is not null;

-- An incident's alerts are read a page at a time, newest received first (docs/api.md#incidents).
create index alerts_incident_received_idx on alerts (incident_id, received_at desc, id desc)
  where incident_id is not null;
