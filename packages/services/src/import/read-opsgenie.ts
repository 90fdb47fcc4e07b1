import { isKeyedOpsgenieType } from '@firebreak/domain';
import {
  formatIssuePath,
  OpsgenieEscalationItem,
  OpsgenieIntegrationItem,
  OpsgenieOverrideItem,
  OpsgenieScheduleItem,
  type OpsgenieSource,
  OpsgenieTeamItem,
  OpsgenieUserItem,
} from '@firebreak/schema';
import type { OpsgenieClient } from './opsgenie-client';
import { notOpsgenie } from './opsgenie-errors';

/**
 * Reads what the import uses (docs/import-opsgenie.md#what-the-importer-reads), one request after the
 * other to stay inside Opsgenie's configuration rate limit: users; teams, each with its members; schedules
 * with their rotations, and each schedule's overrides; escalations; integrations, and the detail of those
 * whose API key the import keeps. Alerts and incidents are not read.
 */
export async function readOpsgenie(client: OpsgenieClient): Promise<OpsgenieSource> {
  const users = parseAll('users', await client.list('users'), OpsgenieUserItem);
  const teams = [];
  for (const team of parseAll('teams', await client.list('teams'), OpsgenieTeamItem)) {
    teams.push(
      parseOne(
        `teams/${team.id}`,
        await client.get(`teams/${encodeURIComponent(team.id)}`),
        OpsgenieTeamItem,
      ),
    );
  }
  const schedules = parseAll(
    'schedules',
    await client.list('schedules', { expand: 'rotation' }),
    OpsgenieScheduleItem,
  );
  const overrides: Record<string, OpsgenieSource['overrides'][string]> = {};
  for (const schedule of schedules) {
    const path = `schedules/${encodeURIComponent(schedule.id)}/overrides`;
    overrides[schedule.id] = parseAll(path, await client.list(path), OpsgenieOverrideItem);
  }
  const escalations = parseAll('escalations', await client.list('escalations'), OpsgenieEscalationItem);
  const integrations = [];
  for (const integration of parseAll(
    'integrations',
    await client.list('integrations'),
    OpsgenieIntegrationItem,
  )) {
    if (!isKeyedOpsgenieType(integration.type)) {
      integrations.push(integration);
      continue;
    }
    const path = `integrations/${encodeURIComponent(integration.id)}`;
    integrations.push({ ...integration, ...parseOne(path, await client.get(path), OpsgenieIntegrationItem) });
  }
  return { users, teams, schedules, overrides, escalations, integrations };
}

/** A zod schema, as far as reading needs it (this package does not depend on zod itself). */
interface Schema<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}

function parseAll<T>(path: string, items: unknown[], schema: Schema<T>): T[] {
  return items.map((item, index) => parse(path, ['data', index], item, schema));
}

function parseOne<T>(path: string, item: unknown, schema: Schema<T>): T {
  return parse(path, ['data'], item, schema);
}

function parse<T>(path: string, at: PropertyKey[], item: unknown, schema: Schema<T>): T {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw notOpsgenie(
    `/v2/${path}`,
    `sent an item this import cannot read (${formatIssuePath([...at, ...issue.path])}: ${issue.message})`,
  );
}
