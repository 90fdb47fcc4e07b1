import { planPagerDutyImport } from '@firebreak/domain';
import type { ImportResult } from '@firebreak/schema';
import type { ChangeOrigin } from '../audit';
import { createPagerDutyClient, type PagerDutyClientOptions } from './pagerduty-client';
import { readPagerDuty } from './read-pagerduty';
import { type ImportContext, runImport } from './run-import';

export interface ImportFromPagerDutyInput {
  /** The REST API host, `https://api.pagerduty.com` by default. */
  url: string;
  /** Sent to PagerDuty only; never stored or logged (the keys of imported integrations are stored). */
  apiToken: string;
  dryRun: boolean;
  /** Who asked, for the audit log; the CLI leaves it out (`system`). */
  origin?: ChangeOrigin;
}

/** Tests (and only tests) shorten the client's timeouts and waits. */
export type PagerDutyClientSettings = Omit<PagerDutyClientOptions, 'url' | 'token'>;

/**
 * `POST /api/v1/imports/pagerduty` and `firebreak-import pagerduty` (docs/import-pagerduty.md). Reads
 * PagerDuty first, outside any transaction (paging and throttling may take a while), then plans and writes
 * in ONE transaction (`runImport`); a dry run writes nothing, and a second run finds everything present.
 */
export async function importFromPagerDuty(
  ctx: ImportContext,
  input: ImportFromPagerDutyInput,
  settings: PagerDutyClientSettings = {},
): Promise<ImportResult> {
  const client = createPagerDutyClient({ ...settings, url: input.url, token: input.apiToken });
  const source = await readPagerDuty(client, ctx.now());
  const answer = await runImport(
    ctx,
    input.dryRun,
    (existing, now) => planPagerDutyImport(source, existing, now),
    { source: 'pagerduty', origin: input.origin },
  );
  ctx.logger.info(
    {
      dry_run: input.dryRun,
      source: new URL(input.url).host,
      summary: answer.summary,
      conflicts: answer.conflicts.length,
      warnings: answer.warnings.length,
    },
    'pagerduty import finished',
  );
  return answer;
}
