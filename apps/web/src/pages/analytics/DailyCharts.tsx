import type { AnalyticsDay } from '@firebreak/schema';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatDuration } from '../../lib/format';
import { ChartFigure, chartColors } from './ChartFigure';

const HEIGHT = 240;
const minutes = (seconds: number | null) => (seconds === null ? null : Math.round(seconds / 6) / 10);
const duration = (seconds: number | null) => (seconds === null ? '—' : formatDuration(seconds));
const shortDay = (date: string) => date.slice(5);

/** Incidents per day, and the day's median times to acknowledge and to resolve. */
export function DailyCharts({ daily }: { daily: AnalyticsDay[] }) {
  const busiest = daily.reduce<AnalyticsDay | null>(
    (top, day) => (top && top.incidents >= day.incidents ? top : day),
    null,
  );
  const times = daily.map((day) => ({
    date: day.date,
    mtta: minutes(day.mtta_p50_seconds),
    mttr: minutes(day.mttr_p50_seconds),
  }));
  return (
    <div className="analytics-pair">
      <ChartFigure
        title="Incidents per day"
        caption={
          busiest && busiest.incidents > 0
            ? `Opened, acknowledged and resolved per UTC day; the busiest was ${busiest.date} with ${busiest.incidents}.`
            : 'Opened, acknowledged and resolved per UTC day.'
        }
        rows={daily}
        rowKey={(day) => day.date}
        columns={[
          { header: 'Day', cell: (day) => day.date },
          { header: 'Opened', cell: (day) => day.incidents },
          { header: 'Acknowledged', cell: (day) => day.acknowledged },
          { header: 'Resolved', cell: (day) => day.resolved },
          { header: 'Alerts', cell: (day) => day.alerts },
        ]}
      >
        <ResponsiveContainer width="100%" height={HEIGHT}>
          <BarChart data={daily} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" opacity={0.4} />
            <XAxis dataKey="date" tickFormatter={shortDay} fontSize={12} />
            <YAxis allowDecimals={false} fontSize={12} width={40} />
            <Tooltip />
            <Legend />
            <Bar dataKey="incidents" name="Opened" fill={chartColors.primary} isAnimationActive={false} />
            <Bar dataKey="resolved" name="Resolved" fill={chartColors.secondary} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartFigure>
      <ChartFigure
        title="MTTA and MTTR per day"
        caption="The median time to acknowledge and to resolve the incidents opened each day, in minutes."
        rows={daily}
        rowKey={(day) => day.date}
        columns={[
          { header: 'Day', cell: (day) => day.date },
          { header: 'MTTA p50', cell: (day) => duration(day.mtta_p50_seconds) },
          { header: 'MTTR p50', cell: (day) => duration(day.mttr_p50_seconds) },
        ]}
      >
        <ResponsiveContainer width="100%" height={HEIGHT}>
          <LineChart data={times} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" opacity={0.4} />
            <XAxis dataKey="date" tickFormatter={shortDay} fontSize={12} />
            <YAxis fontSize={12} width={48} unit=" m" />
            <Tooltip />
            <Legend />
            <Line
              dataKey="mtta"
              name="MTTA p50 (min)"
              stroke={chartColors.warn}
              dot={false}
              connectNulls
              isAnimationActive={false}
            />
            <Line
              dataKey="mttr"
              name="MTTR p50 (min)"
              stroke={chartColors.primary}
              dot={false}
              connectNulls
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </ChartFigure>
    </div>
  );
}
