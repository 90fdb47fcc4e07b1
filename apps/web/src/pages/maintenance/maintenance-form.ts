import type { MaintenanceMatch } from '@firebreak/schema';
import type { MaintenanceWindowInput } from '../../lib/api';
import { parseLabels } from '../routing/rule-form';

/**
 * The New maintenance window form's fields and the request they make. Times are typed in the
 * browser's own time zone (`datetime-local`) and sent as UTC instants, which the API requires.
 * Labels read as in routing rules: a bare key (or `=*`) means "present with any value".
 */
export interface MaintenanceForm {
  name: string;
  startsAt: string;
  endsAt: string;
  integrationIds: string[];
  labels: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A `datetime-local` value (`YYYY-MM-DDTHH:mm`) for an instant, in the browser's time zone. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value as an ISO instant; null when it is empty or not a date. */
export function fromLocalInput(value: string): string | null {
  // Without a zone, a date-time string is local time (ECMAScript's Date.parse rule).
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)
    ? new Date(value).getTime()
    : Number.NaN;
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** Starts now and lasts an hour: the commonest window, a deploy or a reboot. */
export function emptyMaintenanceForm(now: Date): MaintenanceForm {
  return {
    name: '',
    startsAt: toLocalInput(now),
    endsAt: toLocalInput(new Date(now.getTime() + 3600_000)),
    integrationIds: [],
    labels: '',
  };
}

export function maintenanceInputOf(
  form: MaintenanceForm,
): { input: MaintenanceWindowInput } | { error: string } {
  const startsAt = fromLocalInput(form.startsAt);
  const endsAt = fromLocalInput(form.endsAt);
  if (!startsAt || !endsAt) return { error: 'Give a start and an end.' };
  if (Date.parse(endsAt) <= Date.parse(startsAt)) return { error: 'The end must be after the start.' };
  const match: MaintenanceMatch = {};
  // An empty list is refused by the API (a typo must not widen a window), so "none chosen" sends none.
  if (form.integrationIds.length > 0) match.integration_ids = form.integrationIds;
  const labels = parseLabels(form.labels);
  if (Object.keys(labels).length > 0) match.labels = labels;
  return { input: { name: form.name.trim(), starts_at: startsAt, ends_at: endsAt, match } };
}

/** One line for the list: what the window holds back. */
export function describeWindowMatch(
  match: MaintenanceMatch,
  integrationName: (id: string) => string,
): string {
  const parts: string[] = [];
  if (match.integration_ids?.length) parts.push(match.integration_ids.map(integrationName).join(' or '));
  for (const [key, value] of Object.entries(match.labels ?? {}))
    parts.push(value === '*' ? `has ${key}` : `${key}=${value}`);
  return parts.length > 0 ? parts.join(', ') : 'every alert';
}
