import type { AnalyticsView } from '@firebreak/schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { get } from '../../lib/api-client';
import { analyticsQuery, type DayRange, daysIn, rangeOf } from './analytics-range';
import { BreakdownCharts } from './BreakdownCharts';
import { DailyCharts } from './DailyCharts';
import { NoisiestAlerts } from './NoisiestAlerts';
import { PagesChart } from './PagesChart';
import { RangeForm } from './RangeForm';
import { SummaryTiles } from './SummaryTiles';
import './analytics.css';

const MAX_DAYS = 366;

/**
 * How the installation's incidents went over a range of UTC days (docs/analytics.md): response times,
 * counts, who was paged and when, the noisiest alerts. The range and the label live in the URL, so a
 * view can be bookmarked and shared.
 */
export function AnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const range = rangeOf(params.get('from') ?? '', params.get('to') ?? '');
  const groupBy = params.get('group_by') ?? '';
  // Both ends change together (a preset), so the URL is written once per change, not once per field.
  const change = (next: { range?: DayRange; groupBy?: string }) => {
    const url = new URLSearchParams(params);
    const { from, to } = next.range ?? range;
    url.set('from', from);
    url.set('to', to);
    const label = (next.groupBy ?? groupBy).trim();
    if (label) url.set('group_by', label);
    else url.delete('group_by');
    setParams(url, { replace: true });
  };
  const days = daysIn(range);
  const problem =
    days < 1 ? 'The last day is before the first.' : days > MAX_DAYS ? `At most ${MAX_DAYS} days.` : null;
  const query = analyticsQuery(range, groupBy);
  const view = useQuery({
    queryKey: ['analytics', query],
    queryFn: () => get<AnalyticsView>(`/api/v1/analytics?${query}`),
    enabled: !problem,
    // The old numbers stay on screen while a new range loads, instead of the page collapsing.
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Analytics</h1>
          <p className="subtle small">
            Incidents opened in the range, the pages people got, and the alerts that fired. Days are UTC days.
          </p>
        </div>
        {problem ? null : (
          <a className="button" href={`/api/v1/analytics.csv?${query}`} download>
            Download CSV
          </a>
        )}
      </div>
      <RangeForm
        range={range}
        groupBy={groupBy}
        onRange={(next) => change({ range: next })}
        onGroupBy={(label) => change({ groupBy: label })}
      />
      {problem ? (
        <p role="alert" className="alert-box alert-error">
          {problem}
        </p>
      ) : null}
      <ErrorMessage error={view.error} prefix="Could not load the analytics" />
      {view.isPending && !problem ? <p className="empty">Loading…</p> : null}
      {view.data ? <AnalyticsSections view={view.data} busy={view.isFetching} /> : null}
    </>
  );
}

function AnalyticsSections({ view, busy }: { view: AnalyticsView; busy: boolean }) {
  return (
    <div className="analytics" aria-busy={busy}>
      <SummaryTiles view={view} />
      <DailyCharts daily={view.daily} />
      <PagesChart pages={view.pages} />
      <BreakdownCharts incidents={view.incidents} groupBy={view.group_by} />
      <NoisiestAlerts alerts={view.noisiest_alerts} />
    </div>
  );
}
