import type { analytics } from '@firebreak/db';
import { isOutOfHours, utcDaysOf } from '@firebreak/domain';
import {
  type AnalyticsDay,
  type AnalyticsView,
  type IncidentSeverity,
  IncidentSource,
  incidentSeverities,
  type PagedPerson,
} from '@firebreak/schema';

/** Label values listed, the most frequent first: a label such as `host` can have thousands. */
const LABEL_VALUES = 50;

export interface AnalyticsRows {
  window: analytics.AnalyticsWindow;
  groupBy: string | null;
  incidents: readonly analytics.IncidentGroupRow[];
  pages: readonly analytics.PageClockRow[];
  alerts: readonly analytics.AlertGroupRow[];
}

const seconds = (value: number | null) => (value === null ? null : Math.round(value));

/** The view from the rows of `db/analytics`: every severity and source listed, quiet days as zeros. */
export function presentAnalytics(rows: AnalyticsRows): AnalyticsView {
  const groups = (dimension: analytics.IncidentGroupRow['dimension']) =>
    rows.incidents.filter((row) => row.dimension === dimension);
  const all = groups('all')[0];
  const countOf = (dimension: 'severity' | 'source', value: string) =>
    groups(dimension).find((row) => row.value === value)?.incidents ?? 0;
  return {
    from: rows.window.from.toISOString(),
    to: rows.window.to.toISOString(),
    group_by: rows.groupBy,
    mtta_seconds: {
      p50: seconds(all?.tta_p50 ?? null),
      p90: seconds(all?.tta_p90 ?? null),
      count: all?.acknowledged ?? 0,
    },
    mttr_seconds: {
      p50: seconds(all?.ttr_p50 ?? null),
      p90: seconds(all?.ttr_p90 ?? null),
      count: all?.resolved ?? 0,
    },
    incidents: {
      total: all?.incidents ?? 0,
      by_severity: incidentSeverities.map((severity: IncidentSeverity) => ({
        severity,
        count: countOf('severity', severity),
      })),
      by_source: IncidentSource.options.map((source) => ({ source, count: countOf('source', source) })),
      by_label: groups('label')
        .map((row) => ({ value: row.value, count: row.incidents }))
        .sort((a, b) => b.count - a.count || compareLabels(a.value, b.value))
        .slice(0, LABEL_VALUES),
    },
    pages: presentPages(rows.pages),
    noisiest_alerts: rows.alerts
      .filter((row) => row.kind === 'title')
      .sort((a, b) => b.alerts - a.alerts || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((row) => ({
        title: row.key,
        dedup_key: row.dedup_key,
        alerts: row.alerts,
        incidents: row.incidents,
        suppressed: row.suppressed,
        auto_resolved: row.auto_resolved,
      })),
    daily: presentDays(rows),
  };
}

/** Values in order, the incidents without the label last. */
const compareLabels = (a: string | null, b: string | null) =>
  a === null ? (b === null ? 0 : 1) : b === null ? -1 : a.localeCompare(b);

function presentPages(rows: readonly analytics.PageClockRow[]): AnalyticsView['pages'] {
  const people = new Map<string, PagedPerson>();
  let total = 0;
  let outOfHours = 0;
  for (const row of rows) {
    if (!row.by_person) continue;
    const late = isOutOfHours({ isoWeekday: row.iso_weekday, hour: row.hour }) ? row.pages : 0;
    const key = row.user_id ?? `name:${row.name}`;
    const person = people.get(key) ?? {
      user_id: row.user_id,
      name: row.name ?? '',
      pages: 0,
      out_of_hours: 0,
    };
    person.pages += row.pages;
    person.out_of_hours += late;
    people.set(key, person);
    total += row.pages;
    outOfHours += late;
  }
  const byPerson = [...people.values()].sort((a, b) => b.pages - a.pages || a.name.localeCompare(b.name));
  return { total, out_of_hours: outOfHours, by_person: byPerson };
}

function presentDays(rows: AnalyticsRows): AnalyticsDay[] {
  const days = new Map<string, AnalyticsDay>(
    utcDaysOf(rows.window.from, rows.window.to).map((date) => [
      date,
      {
        date,
        incidents: 0,
        acknowledged: 0,
        resolved: 0,
        mtta_p50_seconds: null,
        mttr_p50_seconds: null,
        pages: 0,
        out_of_hours_pages: 0,
        alerts: 0,
      },
    ]),
  );
  for (const row of rows.incidents) {
    const day = row.dimension === 'day' && row.value ? days.get(row.value) : undefined;
    if (!day) continue;
    day.incidents = row.incidents;
    day.acknowledged = row.acknowledged;
    day.resolved = row.resolved;
    day.mtta_p50_seconds = seconds(row.tta_p50);
    day.mttr_p50_seconds = seconds(row.ttr_p50);
  }
  for (const row of rows.pages) {
    const day = !row.by_person && row.day ? days.get(row.day) : undefined;
    if (!day) continue;
    day.pages += row.pages;
    if (isOutOfHours({ isoWeekday: row.iso_weekday, hour: row.hour })) day.out_of_hours_pages += row.pages;
  }
  for (const row of rows.alerts) {
    const day = row.kind === 'day' ? days.get(row.key) : undefined;
    if (day) day.alerts = row.alerts;
  }
  return [...days.values()];
}
