import type { AnalyticsView } from '@firebreak/schema';
import { formatDuration } from '../../lib/format';

const duration = (seconds: number | null) => (seconds === null ? '—' : formatDuration(seconds));

/** The headline numbers; each tile is a term and its value, which a screen reader reads as a pair. */
export function SummaryTiles({ view }: { view: AnalyticsView }) {
  const alerts = view.daily.reduce((sum, day) => sum + day.alerts, 0);
  const tiles: Array<[string, string, string]> = [
    ['MTTA p50', duration(view.mtta_seconds.p50), `over ${view.mtta_seconds.count} acknowledged`],
    ['MTTA p90', duration(view.mtta_seconds.p90), ''],
    ['MTTR p50', duration(view.mttr_seconds.p50), `over ${view.mttr_seconds.count} resolved`],
    ['MTTR p90', duration(view.mttr_seconds.p90), ''],
    ['Incidents', String(view.incidents.total), 'opened in the range'],
    ['Pages', String(view.pages.total), `${view.pages.out_of_hours} out of hours`],
    ['Alerts', String(alerts), 'started in the range'],
  ];
  return (
    <dl className="analytics-tiles" aria-label="Summary">
      {tiles.map(([term, value, note]) => (
        <div key={term} className="card analytics-tile">
          <dt>{term}</dt>
          <dd>
            <span className="analytics-value">{value}</span>
            {note ? <span className="subtle small"> {note}</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
