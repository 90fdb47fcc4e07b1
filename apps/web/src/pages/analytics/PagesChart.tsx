import type { AnalyticsView } from '@firebreak/schema';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartFigure, chartColors } from './ChartFigure';

const ROW_HEIGHT = 28;

/** Pages per person, split into office hours and out of hours (in the zone of the schedule paged through). */
export function PagesChart({ pages }: { pages: AnalyticsView['pages'] }) {
  const people = pages.by_person.map((person) => ({
    ...person,
    key: person.user_id ?? `name:${person.name}`,
    in_hours: person.pages - person.out_of_hours,
  }));
  return (
    <ChartFigure
      title="Pages per person"
      caption={`${pages.total} pages, ${pages.out_of_hours} of them out of hours: outside 09:00–18:00 Monday–Friday in the time zone of the schedule the person was paged through (UTC without one).`}
      rows={people}
      rowKey={(person) => person.key}
      columns={[
        { header: 'Person', cell: (person) => person.name },
        { header: 'Pages', cell: (person) => person.pages },
        { header: 'Out of hours', cell: (person) => person.out_of_hours },
      ]}
    >
      <ResponsiveContainer width="100%" height={Math.max(120, 60 + people.length * ROW_HEIGHT)}>
        <BarChart data={people} layout="vertical" accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" opacity={0.4} />
          <XAxis type="number" allowDecimals={false} fontSize={12} />
          <YAxis type="category" dataKey="name" width={140} fontSize={12} />
          <Tooltip />
          <Legend />
          <Bar
            dataKey="in_hours"
            name="Office hours"
            stackId="pages"
            fill={chartColors.primary}
            isAnimationActive={false}
          />
          <Bar
            dataKey="out_of_hours"
            name="Out of hours"
            stackId="pages"
            fill={chartColors.danger}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
