/**
 * The query filters each OnCall list endpoint documents (docs/integrations/grafana-oncall.md#endpoints). The
 * importer needs none of them, but a fake that silently ignored `?email=` would let a wrong client look
 * right.
 */
import type { OnCallDataSet, OnCallItem, OnCallResource } from './data';

type Filter = (item: OnCallItem, value: string, data: OnCallDataSet) => boolean;

const exact =
  (field: string): Filter =>
  (item, value) =>
    item[field] === value;

const iexact =
  (field: string): Filter =>
  (item, value) =>
    typeof item[field] === 'string' && (item[field] as string).toLowerCase() === value.toLowerCase();

/** `team_id=null` selects items without a team (`NO_TEAM_VALUE`). */
const teamId: Filter = (item, value) => (value === 'null' ? item.team_id === null : item.team_id === value);

/** A shift belongs to a schedule by its FK (web) or by the schedule's `shifts` list (calendar M2M). */
const scheduleId: Filter = (item, value, data) =>
  item.schedule === value ||
  data.schedules.some((s) => s.id === value && Array.isArray(s.shifts) && s.shifts.includes(item.id));

/** Items say `firing`; the filter spells it `new` (D8). */
const ALERT_GROUP_STATES: Record<string, string> = {
  new: 'firing',
  acknowledged: 'acknowledged',
  resolved: 'resolved',
  silenced: 'silenced',
};

const FILTERS: Record<OnCallResource, Record<string, Filter>> = {
  users: { email: iexact('email'), username: iexact('username') },
  teams: { name: exact('name') },
  schedules: { name: exact('name'), team_id: teamId },
  on_call_shifts: { name: exact('name'), schedule_id: scheduleId, team_id: teamId },
  escalation_chains: { name: exact('name'), team_id: teamId },
  escalation_policies: { escalation_chain_id: exact('escalation_chain_id') },
  integrations: { name: exact('name'), team_id: teamId },
  alert_groups: {
    id: exact('id'),
    route_id: exact('route_id'),
    integration_id: exact('integration_id'),
    team_id: teamId,
    state: (item, value) => item.state === ALERT_GROUP_STATES[value.toLowerCase()],
  },
};

/** DRF answers a bad choice with 400 and the field's messages. */
export type FilterResult = { items: OnCallItem[] } | { error: Record<string, string[]> };

export function applyFilters(resource: OnCallResource, url: URL, data: OnCallDataSet): FilterResult {
  let items = data[resource];
  for (const [name, filter] of Object.entries(FILTERS[resource])) {
    const value = url.searchParams.get(name);
    if (value === null || value === '') continue;
    if (name === 'state' && !(value.toLowerCase() in ALERT_GROUP_STATES)) {
      return { error: { state: [`Select a valid choice. ${value} is not one of the available choices.`] } };
    }
    items = items.filter((item) => filter(item, value, data));
  }
  return { items };
}
