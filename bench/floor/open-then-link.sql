-- An opening's writes as the intake committed them until migration 0031: the alert stored, then the
-- incident, its two entries, its two outbox rows and the alert's link in one statement (an update of the
-- alert written moments before).
\set n random(1, 1000000000)
begin;
select set_config('firebreak.wake', 'after_commit', true);
insert into alerts (id, integration, source, dedup_key, external_id, title, severity, status, labels, started_at)
values (gen_random_uuid(), 'generic', 'generic', 'k' || :n || '-' || gen_random_uuid(), 'e', 'CPU high on web-1',
        'critical', 'firing', '{"host":"web-1"}', now())
returning id \gset alert_
select nextval(pg_get_serial_sequence('incidents', 'number'))::int as number, (select id from routing_rules limit 1) as rule \gset
with incident as (
  insert into incidents (id, number, title, description, severity, source, routing_rule_id, opened_by_alert_id)
  overriding system value
  values (gen_random_uuid(), :number, 'CPU high on web-1', '', 'critical', 'alert', :rule::uuid, :alert_id::uuid)
  returning *
), entries as (
  insert into timeline_entries (incident_id, type, actor_type, data)
  select id, t, 'system', '{"alert_id":"x"}' from incident, (values ('incident_created'), ('alert_linked')) v(t)
), jobs as (
  insert into outbox (job_name, payload, ordering_key)
  select j, '{"incident_id":"x"}', 'incident:' || (select id from incident)
  from (values ('chat.channel'), ('chat.alert')) v(j)
), linked as (
  update alerts set incident_id = (select id from incident), routing_rule_id = :rule::uuid, suppressed = false,
                    maintenance_window_id = null
  where id = :alert_id::uuid
)
select id from incident;
commit;
