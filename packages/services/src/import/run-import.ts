import type { ExistingRecords, ImportPlan } from '@firebreak/domain';
import type { ImportResult } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { refusingConflicts } from '../oncall/write-errors';
import { changedMeanwhile } from './changed-meanwhile';
import { readExisting } from './existing-records';
import { presentImport } from './present-import';
import { idsOfExisting, writePlan } from './write-plan';

/** An import needs no queue or metrics, so the CLI can run it with a database alone. */
export type ImportContext = Pick<ServiceContext, 'sql' | 'logger' | 'now'>;

/** What the audit row of an import names: the source system and who asked (the CLI is `system`). */
export interface ImportAudit {
  source: 'oncall' | 'opsgenie' | 'pagerduty';
  origin?: ChangeOrigin | undefined;
}

/**
 * The part every importer shares once the source has been read (outside any transaction, since reading
 * may take a while): ONE transaction that reads what exists, plans (pure, in the domain) and writes.
 * A dry run does the same in a read-only transaction and skips the writes, so it answers what the
 * import would do and cannot change anything. A second run finds everything present: conflicts, never
 * duplicates; a record created meanwhile with an imported name or key is 409 `conflict`.
 */
export async function runImport(
  ctx: ImportContext,
  dryRun: boolean,
  plan: (existing: ExistingRecords, now: Date) => ImportPlan,
  audit?: ImportAudit,
): Promise<ImportResult> {
  const run = ctx.sql.begin(dryRun ? 'read only' : 'read write', async (tx) => {
    const existing = await readExisting(tx);
    const now = ctx.now();
    const planned = plan(existing, now);
    const ids = dryRun
      ? idsOfExisting(existing.userIds)
      : await writePlan(tx, planned, existing.userIds, now);
    const answer = presentImport(planned, ids, dryRun);
    // A dry run changes nothing, so it has no audit row. The setup tokens are redacted by name.
    if (!dryRun) {
      await recordAudit(tx, ctx, {
        origin: audit?.origin ?? systemOrigin,
        entity: 'import',
        entityId: audit?.source ?? null,
        action: 'import',
        before: null,
        after: { source: audit?.source ?? null, ...answer },
      });
    }
    return answer;
  });
  return refusingConflicts(run, changedMeanwhile);
}
