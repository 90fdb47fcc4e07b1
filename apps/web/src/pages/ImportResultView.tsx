import type { ImportResult } from '@firebreak/schema';
import { TableScroll } from '../components/TableScroll';

const kindLabel = {
  user: 'User',
  schedule: 'Schedule',
  escalation_policy: 'Escalation policy',
  integration: 'Integration',
} as const;

/** The answer of every importer (OnCall, PagerDuty, Opsgenie): they share one shape. */
export function ImportResultView({
  result,
  sourceName = 'OnCall',
}: {
  result: ImportResult;
  /** Names the source in the integrations heading ("Point your PagerDuty integrations here"). */
  sourceName?: string;
}) {
  const { summary } = result;
  const rows = [
    ['Users', summary.users],
    ['Schedules', summary.schedules],
    ['Escalation policies', summary.escalation_policies],
    // Only importers that keep the source's keys create integrations; OnCall's never does.
    ...(summary.integrations.created + summary.integrations.skipped > 0
      ? ([['Integrations', summary.integrations]] as const)
      : []),
  ] as const;
  return (
    <section className="card stack" aria-label="Import result" style={{ marginTop: '1rem' }}>
      <div role="status" className={`alert-box ${result.dry_run ? 'alert-info' : 'alert-ok'}`}>
        {result.dry_run ? 'Dry run: nothing was written. This is what the import would do.' : 'Import done.'}
      </div>
      <TableScroll label="Import summary">
        <table aria-label="Import summary">
          <thead>
            <tr>
              <th />
              <th className="num">{result.dry_run ? 'Would create' : 'Created'}</th>
              <th className="num">Skipped</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([label, counts]) => (
              <tr key={label}>
                <td>{label}</td>
                <td className="num">{counts.created}</td>
                <td className="num">{counts.skipped}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <div className="grid-2">
        <div>
          <h3>Users</h3>
          <ul className="small">
            {result.users.map((user) => (
              <li key={user.email}>
                {user.name} ({user.email}, {user.role})
              </li>
            ))}
          </ul>
          <h3>Schedules</h3>
          <ul className="small">
            {result.schedules.map((schedule) => (
              <li key={schedule.name}>
                {schedule.name} — {schedule.layers.length} layer(s), {schedule.timezone}
              </li>
            ))}
          </ul>
          <h3>Escalation policies</h3>
          <ul className="small">
            {result.escalation_policies.map((policy) => (
              <li key={policy.name}>
                {policy.name} — {policy.tiers.length} tier(s)
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3>Skipped ({result.conflicts.length})</h3>
          <ul className="small">
            {result.conflicts.map((conflict, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed answer, never reordered; names may repeat.
              <li key={`${conflict.kind}-${conflict.name}-${index}`}>
                {kindLabel[conflict.kind]} <strong>{conflict.name}</strong>: {conflict.reason}
              </li>
            ))}
          </ul>
          <h3>Warnings ({result.warnings.length})</h3>
          <ul className="small">
            {result.warnings.map((warning, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed answer, never reordered; names may repeat.
              <li key={`${warning.kind}-${warning.name}-${index}`}>
                {kindLabel[warning.kind]} <strong>{warning.name}</strong>: {warning.message}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div>
        <h3>Point your {sourceName} integrations here</h3>
        <TableScroll label="Integrations">
          <table aria-label="Integrations">
            <thead>
              <tr>
                <th>Integration</th>
                <th>Type</th>
                <th>Firebreak webhook</th>
                <th>What to do</th>
              </tr>
            </thead>
            <tbody>
              {result.integrations.map((integration) => (
                <tr key={`${integration.name}-${integration.type}`}>
                  <td>{integration.name}</td>
                  <td>{integration.type}</td>
                  <td className="mono">{integration.webhook_path ?? 'not supported (inbound e-mail)'}</td>
                  <td className="small">
                    {integration.note ?? ''}
                    {integration.integration_id ? ' (integration created)' : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </div>
      {result.setup_tokens.length > 0 ? (
        <div>
          <h3>Set-up tokens (shown once, valid 7 days)</h3>
          <p className="small subtle">
            Each imported user sets a password with their token (POST /api/v1/auth/setup).
          </p>
          <ul className="small mono">
            {result.setup_tokens.map((grant) => (
              <li key={grant.email}>
                {grant.email}: {grant.token}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
