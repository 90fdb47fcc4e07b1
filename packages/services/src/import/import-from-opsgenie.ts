import { planOpsgenieImport } from '@firebreak/domain';
import type { ImportResult } from '@firebreak/schema';
import type { ChangeOrigin } from '../audit';
import { createOpsgenieClient, type OpsgenieClientOptions } from './opsgenie-client';
import { readOpsgenie } from './read-opsgenie';
import { type ImportContext, runImport } from './run-import';

export interface ImportFromOpsgenieInput {
  /** `https://api.opsgenie.com` or `https://api.eu.opsgenie.com`. */
  url: string;
  /** Sent to Opsgenie only; never stored or logged (the keys of imported integrations are stored). */
  apiKey: string;
  dryRun: boolean;
  /** Who asked, for the audit log; the CLI leaves it out (`system`). */
  origin?: ChangeOrigin;
}

/** Tests (and only tests) shorten the client's timeouts and waits. */
export type OpsgenieClientSettings = Omit<OpsgenieClientOptions, 'url' | 'apiKey'>;

/**
 * `POST /api/v1/imports/opsgenie` and `firebreak-import opsgenie` (docs/import-opsgenie.md). Reads
 * Opsgenie first, outside any transaction (paging and throttling may take a while), then plans and writes
 * in ONE transaction (`runImport`); a dry run writes nothing, and a second run finds everything present.
 */
export async function importFromOpsgenie(
  ctx: ImportContext,
  input: ImportFromOpsgenieInput,
  settings: OpsgenieClientSettings = {},
): Promise<ImportResult> {
  const source = await readOpsgenie(
    createOpsgenieClient({ ...settings, url: input.url, apiKey: input.apiKey }),
  );
  const answer = await runImport(
    ctx,
    input.dryRun,
    (existing, now) => planOpsgenieImport(source, existing, now),
    { source: 'opsgenie', origin: input.origin },
  );
  ctx.logger.info(
    {
      dry_run: input.dryRun,
      source: new URL(input.url).host,
      summary: answer.summary,
      conflicts: answer.conflicts.length,
      warnings: answer.warnings.length,
    },
    'opsgenie import finished',
  );
  return answer;
}
