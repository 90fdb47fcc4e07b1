import type { AnalyticsView } from '@firebreak/schema';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartFigure, chartColors } from './ChartFigure';

interface Slice {
  name: string;
  count: number;
}

/** The range's incidents by severity, by source, and by the chosen label's value. */
export function BreakdownCharts({
  incidents,
  groupBy,
}: {
  incidents: AnalyticsView['incidents'];
  groupBy: string | null;
}) {
  return (
    <div className="analytics-trio">
      <Breakdown
        title="By severity"
        caption={`The ${incidents.total} incidents by severity.`}
        slices={incidents.by_severity.map((s) => ({ name: s.severity, count: s.count }))}
      />
      <Breakdown
        title="By source"
        caption="Opened from an alert, by a person (manual), or from chat."
        slices={incidents.by_source.map((s) => ({ name: s.source, count: s.count }))}
      />
      {groupBy ? (
        <Breakdown
          title={`By label ${groupBy}`}
          caption={`The value of ${groupBy} on the alert that opened each incident; "(none)" without it. At most 50 values.`}
          slices={incidents.by_label.map((s) => ({ name: s.value ?? '(none)', count: s.count }))}
        />
      ) : (
        <section className="card analytics-chart" aria-label="By label">
          <h2>By label</h2>
          <p className="subtle small">
            Name an alert label above (team, service…) to count incidents by its value.
          </p>
        </section>
      )}
    </div>
  );
}

function Breakdown({ title, caption, slices }: { title: string; caption: string; slices: Slice[] }) {
  const shown = slices.some((slice) => slice.count > 0) ? slices : [];
  return (
    <ChartFigure
      title={title}
      caption={caption}
      rows={shown}
      rowKey={(slice) => slice.name}
      columns={[
        { header: 'Value', cell: (slice) => slice.name },
        { header: 'Incidents', cell: (slice) => slice.count },
      ]}
    >
      <ResponsiveContainer width="100%" height={200}>
        <BarChart data={shown} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" opacity={0.4} />
          <XAxis dataKey="name" fontSize={12} interval={0} />
          <YAxis allowDecimals={false} fontSize={12} width={40} />
          <Tooltip />
          <Bar dataKey="count" name="Incidents" fill={chartColors.primary} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
