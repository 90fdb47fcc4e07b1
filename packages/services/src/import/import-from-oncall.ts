import { planOnCallImport } from '@firebreak/domain';
import type { OnCallImportResult } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { refusingConflicts } from '../oncall/write-errors';
import { readExisting } from './existing-records';
import { createOnCallClient, type OnCallClientOptions } from './oncall-client';
import { presentImport } from './present-import';
import { readOnCall } from './read-oncall';
import { idsOfExisting, writePlan } from './write-plan';

/** The import needs no queue or metrics, so the CLI can run it with a database alone. */
export type ImportContext = Pick<ServiceContext, 'sql' | 'logger' | 'now'>;

export interface ImportFromOnCallInput {
  url: string;
  /** Sent to OnCall only; never stored or logged. */
  apiToken: string;
  dryRun: boolean;
}

/** Tests (and only tests) shorten the client's timeouts and waits. */
export type OnCallClientSettings = Omit<OnCallClientOptions, 'url' | 'token'>;

// Someone created a record with an imported name between our read and our write.
const changedMeanwhile = {
  users_email_key: 'A user with an imported e-mail was created while the import ran; run it again.',
  users_slack_user_id_key:
    'A user with an imported slack_user_id was created while the import ran; run it again.',
  schedules_name_key: 'A schedule with an imported name was created while the import ran; run it again.',
  escalation_policies_name_key:
    'An escalation policy with an imported name was created while the import ran; run it again.',
};

/**
 * `POST /api/v1/imports/oncall` and `firebreak-import oncall` (docs/import-oncall.md). Reads OnCall first,
 * outside any transaction (it may take a while, throttling included); then, in ONE transaction, reads
 * what exists, plans, and writes. A dry run does the same in a read-only transaction and skips the
 * writes, so it answers what the import would do and cannot change anything. A second import finds
 * everything present and skips it all as conflicts.
 */
export async function importFromOnCall(
  ctx: ImportContext,
  input: ImportFromOnCallInput,
  settings: OnCallClientSettings = {},
): Promise<OnCallImportResult> {
  const source = await readOnCall(createOnCallClient({ ...settings, url: input.url, token: input.apiToken }));
  const run = ctx.sql.begin(input.dryRun ? 'read only' : 'read write', async (tx) => {
    const existing = await readExisting(tx);
    const now = ctx.now();
    const plan = planOnCallImport(source, existing, now);
    const ids = input.dryRun
      ? idsOfExisting(existing.userIds)
      : await writePlan(tx, plan, existing.userIds, now);
    return presentImport(plan, ids, input.dryRun);
  });
  const answer = await refusingConflicts(run, changedMeanwhile);
  ctx.logger.info(
    {
      dry_run: input.dryRun,
      source: new URL(input.url).host,
      summary: answer.summary,
      conflicts: answer.conflicts.length,
      warnings: answer.warnings.length,
    },
    'oncall import finished',
  );
  return answer;
}
