-- Eight openings written together, as the intake writes the distinct failures of one transaction:
-- the alerts stored already linked, then the incidents, their entries and their outbox rows in one
-- statement. Its rate counts transactions: eight openings each.
\set n random(1, 1000000000)
begin;
select set_config('firebreak.wake', 'after_commit', true);
with alert as (
  insert into alerts (id, integration, source, dedup_key, external_id, title, severity, status, labels,
                      started_at, incident_id, routing_rule_id)
  select gen_random_uuid(), 'generic', 'generic', 'k' || :n || '-' || gen_random_uuid(), 'e',
         'CPU high on web-1', 'critical', 'firing', '{"host":"web-1"}', now(), gen_random_uuid(),
         (select id from routing_rules limit 1)
  from generate_series(1, 8)
  returning id, incident_id, routing_rule_id
), incident as (
  insert into incidents (id, number, title, description, severity, source, routing_rule_id, opened_by_alert_id)
  overriding system value
  select incident_id, nextval(pg_get_serial_sequence('incidents', 'number')), 'CPU high on web-1', '',
         'critical', 'alert', routing_rule_id, id
  from alert
  returning *
), entries as (
  insert into timeline_entries (incident_id, type, actor_type, data)
  select id, t, 'system', '{"alert_id":"x"}' from incident, (values ('incident_created'), ('alert_linked')) v(t)
), jobs as (
  insert into outbox (job_name, payload, ordering_key)
  select j, '{"incident_id":"x"}', 'incident:' || incident.id
  from incident, (values ('chat.channel'), ('chat.alert')) v(j)
)
select count(*) from incident;
commit;
