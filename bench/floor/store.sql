-- A stored alert's write: what a store-only intake request commits.
\set n random(1, 1000000000)
begin;
insert into alerts (id, integration, source, dedup_key, external_id, title, severity, status, labels, started_at)
values (gen_random_uuid(), 'generic', 'generic', 'k' || :n || '-' || gen_random_uuid(), 'e', 'CPU high on web-1',
        'info', 'firing', '{"host":"web-1"}', now());
commit;
