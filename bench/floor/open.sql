-- An opening's writes as the intake commits them: the alert stored already linked to the incident id
-- chosen for it (its reference is checked at commit), then the incident, its two entries and its two
-- outbox rows in one statement.
\set n random(1, 1000000000)
begin;
select set_config('firebreak.wake', 'after_commit', true);
insert into alerts (id, integration, source, dedup_key, external_id, title, severity, status, labels, started_at,
                    incident_id, routing_rule_id)
values (gen_random_uuid(), 'generic', 'generic', 'k' || :n || '-' || gen_random_uuid(), 'e', 'CPU high on web-1',
        'critical', 'firing', '{"host":"web-1"}', now(), gen_random_uuid(), (select id from routing_rules limit 1))
returning id as alert_id, incident_id, routing_rule_id as rule \gset
select nextval(pg_get_serial_sequence('incidents', 'number'))::int as number \gset
with incident as (
  insert into incidents (id, number, title, description, severity, source, routing_rule_id, opened_by_alert_id)
  overriding system value
  values (:incident_id::uuid, :number, 'CPU high on web-1', '', 'critical', 'alert', :rule::uuid, :alert_id::uuid)
  returning *
), entries as (
  insert into timeline_entries (incident_id, type, actor_type, data)
  select id, t, 'system', '{"alert_id":"x"}' from incident, (values ('incident_created'), ('alert_linked')) v(t)
), jobs as (
  insert into outbox (job_name, payload, ordering_key)
  select j, '{"incident_id":"x"}', 'incident:' || (select id from incident)
  from (values ('chat.channel'), ('chat.alert')) v(j)
)
select id from incident;
commit;
