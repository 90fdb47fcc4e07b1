import { planOnCallImport } from '@firebreak/domain';
import type { OnCallImportResult } from '@firebreak/schema';
import type { ChangeOrigin } from '../audit';
import { createOnCallClient, type OnCallClientOptions } from './oncall-client';
import { readOnCall } from './read-oncall';
import { type ImportContext, runImport } from './run-import';

export interface ImportFromOnCallInput {
  url: string;
  /** Sent to OnCall only; never stored or logged. */
  apiToken: string;
  dryRun: boolean;
  /** Who asked, for the audit log; the CLI leaves it out (`system`). */
  origin?: ChangeOrigin;
}

/** Tests (and only tests) shorten the client's timeouts and waits. */
export type OnCallClientSettings = Omit<OnCallClientOptions, 'url' | 'token'>;

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
  const answer = await runImport(
    ctx,
    input.dryRun,
    (existing, now) => planOnCallImport(source, existing, now),
    { source: 'oncall', origin: input.origin },
  );
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
