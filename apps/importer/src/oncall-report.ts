import type { OnCallImportResult } from '@firebreak/schema';
import { renderImportReport } from './import-report';

/** The human-readable report of `firebreak-import oncall` (without `--json`). */
export function renderOnCallReport(answer: OnCallImportResult): string {
  return renderImportReport(answer, 'Grafana OnCall');
}
