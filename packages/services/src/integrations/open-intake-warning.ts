import { settings } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { openIntakePaths } from '../settings/fixed-webhooks';

// One process has one context: remembering the contexts already warned keeps the line to once per
// process however many apps the process serves (the embedded server serves the ingest routes once).
const warned = new WeakSet<object>();

/**
 * At start-up: when a fixed webhook path accepts alerts from anyone, say so once, naming the paths and
 * how to close them (docs/integrations/keyed-intake.md#open-intake). Answers the open paths.
 */
export async function warnIfFixedIntakeOpen(ctx: Pick<ServiceContext, 'sql' | 'logger'>): Promise<string[]> {
  if (warned.has(ctx)) return [];
  const open = openIntakePaths(await settings.listSettings(ctx.sql)).map((entry) => entry.path);
  warned.add(ctx);
  if (open.length > 0) {
    ctx.logger.warn(
      { open_intake: open },
      `open intake: ${open.join(', ')} accept alerts from anyone. Close each by setting its secret in ` +
        'Settings → Integrations, or PATCH /api/v1/settings {"fixed_webhooks_enabled": false} and send ' +
        'to the integrations’ keyed URLs (docs/integrations/keyed-intake.md#open-intake)',
    );
  }
  return open;
}

/**
 * The start-up call: warns as soon as the settings can be read. A process may start before its
 * database (docs/architecture.md#degraded-operation); it then tries again every few seconds, on a
 * timer that never holds the process open.
 */
export function scheduleOpenIntakeWarning(ctx: Pick<ServiceContext, 'sql' | 'logger'>, retryMs = 5000): void {
  const attempt = (): void => {
    warnIfFixedIntakeOpen(ctx).catch(() => setTimeout(attempt, retryMs).unref());
  };
  attempt();
}
