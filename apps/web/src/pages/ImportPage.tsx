import { useState } from 'react';
import { canWrite, useMe } from '../lib/session';
import { OnCallImportPanel } from './OnCallImportPanel';
import { OpsgenieImportPanel } from './OpsgenieImportPanel';
import { PagerDutyImportPanel } from './PagerDutyImportPanel';

/**
 * The importers, one source at a time (docs/import-oncall.md, docs/import-pagerduty.md,
 * docs/import-opsgenie.md): each panel is a form with a dry run first and the same answer view. One at a
 * time, so each form's fields and buttons keep their plain names ("API token", "Import now").
 */
const sources = [
  { id: 'oncall', label: 'Grafana OnCall', Panel: OnCallImportPanel },
  { id: 'pagerduty', label: 'PagerDuty', Panel: PagerDutyImportPanel },
  { id: 'opsgenie', label: 'Opsgenie', Panel: OpsgenieImportPanel },
] as const;

type SourceId = (typeof sources)[number]['id'];

export function ImportPage() {
  const me = useMe();
  const [selected, setSelected] = useState<SourceId>('oncall');
  if (!canWrite(me.data, 'admin')) return <p className="card">Only admins can import.</p>;
  const source = sources.find((s) => s.id === selected) ?? sources[0];
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Import from {source.label}</h1>
        </div>
      </div>
      <fieldset className="tabs plain-fieldset">
        <legend className="visually-hidden">Import from</legend>
        {sources.map((s) => (
          <button
            key={s.id}
            type="button"
            className="tab"
            aria-pressed={s.id === selected}
            onClick={() => setSelected(s.id)}
          >
            {s.label}
          </button>
        ))}
      </fieldset>
      {/* Keyed by source: switching starts the other form afresh, with no result of the first. */}
      <source.Panel key={source.id} />
    </>
  );
}
