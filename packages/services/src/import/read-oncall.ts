import { formatIssuePath, type OnCallSource, onCallSourceItems } from '@firebreak/schema';
import type { OnCallClient } from './oncall-client';
import { notOnCall } from './oncall-errors';

/**
 * Reads the endpoints whose data the import uses (docs/integrations/grafana-oncall.md#endpoints), one after
 * the other to stay well inside OnCall's 300 requests a minute. Teams and alert groups are not read: nothing
 * is imported from them, and an organisation's alert history can run to thousands of pages.
 */
export async function readOnCall(client: OnCallClient): Promise<OnCallSource> {
  const source: Partial<Record<keyof OnCallSource, unknown[]>> = {};
  for (const [resource, schema] of Object.entries(onCallSourceItems)) {
    const items = await client.list(resource);
    source[resource as keyof OnCallSource] = items.map((item, index) => {
      const parsed = schema.safeParse(item);
      if (parsed.success) return parsed.data;
      const issue = parsed.error.issues[0]!;
      const at = formatIssuePath([index, ...issue.path]);
      throw notOnCall(
        `/api/v1/${resource}/`,
        `sent an item this import cannot read (results${at}: ${issue.message})`,
      );
    });
  }
  return source as OnCallSource;
}
