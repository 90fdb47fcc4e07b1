import type { Operations } from '@firebreak/http';
import type { AnalyticsDay, AnalyticsView } from '@firebreak/schema';
import { readAnalytics } from '@firebreak/services';
import { stringify } from 'csv-stringify/sync';
import type { ApiDeps } from '../deps';
import { analyticsOperations as op } from '../operations/analytics';

/** The CSV's columns: the daily series' fields, in the order of the JSON answer. */
const dailyColumns: (keyof AnalyticsDay)[] = [
  'date',
  'incidents',
  'acknowledged',
  'resolved',
  'mtta_p50_seconds',
  'mttr_p50_seconds',
  'pages',
  'out_of_hours_pages',
  'alerts',
];

/** Read-only numbers (docs/analytics.md); the CSV is the same daily series, for a spreadsheet. */
export function addAnalyticsRoutes(ops: Operations, deps: ApiDeps): void {
  ops.add(op.view, async (c, { query }) => c.json(await readAnalytics(deps.ctx, query)));
  ops.add(op.csv, async (c, { query }) => {
    const view = await readAnalytics(deps.ctx, query);
    return c.body(dailyCsv(view), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${csvFileName(view)}"`,
    });
  });
}

/**
 * The daily series as CSV. csv-stringify writes null (a day without an acknowledged incident) as an
 * empty cell, and with `escape_formulas` a cell that a spreadsheet would run as a formula (`=`, `+`, `-`,
 * `@` first) is prefixed with `'`: the series holds only dates and counts today, and a text column
 * added later must not become a way to run formulas on whoever opens the file.
 */
export function dailyCsv(view: Pick<AnalyticsView, 'daily'>): string {
  return stringify(view.daily, { header: true, columns: dailyColumns, escape_formulas: true });
}

/** `firebreak-analytics-2026-10-26-2026-11-25.csv`: the window's first and last UTC day. */
function csvFileName(view: AnalyticsView): string {
  const first = view.daily[0]?.date ?? view.from.slice(0, 10);
  const last = view.daily.at(-1)?.date ?? view.to.slice(0, 10);
  return `firebreak-analytics-${first}-${last}.csv`;
}
