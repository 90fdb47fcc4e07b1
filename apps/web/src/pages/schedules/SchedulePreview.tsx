import { TableScroll } from '../../components/TableScroll';
import { formatDateTime } from '../../lib/format';
import { PREVIEW_DAYS, previewOf, type ScheduleForm } from './schedule-form';
import { colourOf, segmentsInWindow } from './shift-window';

/** Who the form would put on call over the next two weeks, before anything is saved. */
export function SchedulePreview({ form, from }: { form: ScheduleForm; from: Date }) {
  const preview = previewOf(form, from);
  if ('error' in preview) {
    return (
      <section aria-label="Preview" className="stack">
        <h3>Preview of the next {PREVIEW_DAYS} days</h3>
        <p className="subtle small">Nothing to draw yet: {preview.error}</p>
      </section>
    );
  }
  const segments = segmentsInWindow(preview.shifts, from, preview.to);
  return (
    <section aria-label="Preview" className="stack">
      <h3>Preview of the next {PREVIEW_DAYS} days</h3>
      <p className="subtle small">
        Computed here from the form, with the same rotation rules the pager uses; overrides are not included.
        Times are shown in your browser's time zone.
      </p>
      <div
        className="shift-bar"
        role="img"
        aria-label={`Next ${PREVIEW_DAYS} days: ${segments.map((s) => `${s.name} from ${formatDateTime(s.start.toISOString())}`).join('; ') || 'nobody on call'}`}
      >
        {segments.map((segment) => (
          <div
            key={segment.start.toISOString()}
            className="shift-seg"
            style={{
              left: `${segment.left}%`,
              width: `${segment.width}%`,
              background: colourOf(segment.name),
            }}
          >
            {segment.name}
          </div>
        ))}
      </div>
      <TableScroll label="Previewed shifts">
        <table aria-label="Previewed shifts">
          <thead>
            <tr>
              <th>Who</th>
              <th>From</th>
              <th>Until</th>
              <th>Layer</th>
            </tr>
          </thead>
          <tbody>
            {preview.shifts.map((shift) => (
              <tr key={`${shift.layer}-${shift.start.toISOString()}`}>
                <td>{shift.name}</td>
                <td>{formatDateTime(shift.start.toISOString())}</td>
                <td>{formatDateTime(shift.end.toISOString())}</td>
                <td className="subtle">{shift.layer}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {preview.shifts.length === 0 ? (
          <p className="empty">Nobody would be on call: add people to a layer.</p>
        ) : null}
      </TableScroll>
    </section>
  );
}
