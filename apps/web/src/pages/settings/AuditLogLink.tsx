import { Link } from 'react-router';

/** The audit log has a page of its own (a filtered table); Settings, where admins change things, leads there. */
export function AuditLogLink() {
  return (
    <section className="card" aria-labelledby="audit-log-heading">
      <h2 id="audit-log-heading">Audit log</h2>
      <p style={{ margin: 0 }}>
        Who changed users, API keys, rules, policies, schedules, integrations and settings, and when:{' '}
        <Link to="/audit-log">read the audit log</Link>.
      </p>
    </section>
  );
}
