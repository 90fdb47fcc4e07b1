import { type ReactNode, useId } from 'react';

export interface ChartColumn<Row> {
  header: string;
  cell: (row: Row) => string | number;
}

/**
 * A chart with its data as a table. The drawing is hidden from screen readers, which always have the
 * table instead: it is in the page, visually hidden, whether or not anyone opened "Show the numbers".
 * That visible copy, for sighted readers, is hidden from screen readers so they do not hear it twice.
 */
export function ChartFigure<Row>({
  title,
  caption,
  rows,
  columns,
  rowKey,
  children,
}: {
  title: string;
  caption: string;
  rows: readonly Row[];
  columns: ChartColumn<Row>[];
  rowKey: (row: Row) => string;
  children: ReactNode;
}) {
  const titleId = useId();
  const table = { title, rows, columns, rowKey };
  return (
    <figure className="card analytics-chart" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <figcaption className="subtle small">{caption}</figcaption>
      {rows.length === 0 ? (
        <p className="empty">Nothing in this range.</p>
      ) : (
        <>
          <div className="analytics-drawing" aria-hidden="true">
            {children}
          </div>
          <div className="visually-hidden">
            <ChartTable {...table} />
          </div>
          <details>
            <summary>Show the numbers</summary>
            <div className="table-wrap" aria-hidden="true">
              <ChartTable {...table} />
            </div>
          </details>
        </>
      )}
    </figure>
  );
}

function ChartTable<Row>({
  title,
  rows,
  columns,
  rowKey,
}: {
  title: string;
  rows: readonly Row[];
  columns: ChartColumn<Row>[];
  rowKey: (row: Row) => string;
}) {
  return (
    <table aria-label={title}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column) => (
              <td key={column.header}>{column.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Colours that read on the light and the dark theme alike (SVG attributes cannot take CSS variables). */
export const chartColors = {
  primary: '#3b82f6',
  secondary: '#10b981',
  warn: '#f59e0b',
  danger: '#ef4444',
  muted: '#8b95a1',
} as const;
