-- Alert grouping (docs/api.md#routing-rules, routing action `group_by`): an incident opened by a rule remembers
-- the values of the rule's group_by labels, so a later alert of the same group within the window is
-- linked to it instead of opening another incident.
alter table incidents add column group_key text;

create index incidents_open_group_idx on incidents (routing_rule_id, group_key, created_at desc)
  where group_key is not null and status <> 'resolved';
