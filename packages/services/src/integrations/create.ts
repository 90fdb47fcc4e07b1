import { integrations } from '@firebreak/db';
import {
  type CreateIntegrationInput,
  DEFAULT_HEARTBEAT_GRACE_SECONDS,
  type Integration,
} from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { integrationAuditView } from './audit-view';
import { requireEscalationPolicy } from './checks';
import { generateIntakeKey } from './keys';
import { type IntegrationAudience, presentIntegration } from './present';

/** A new integration with a fresh intake key; a heartbeat waits for its first ping to arm its deadline. */
export async function createIntegration(
  ctx: ServiceContext,
  input: CreateIntegrationInput,
  audience: IntegrationAudience,
  origin: ChangeOrigin = systemOrigin,
): Promise<Integration> {
  await requireEscalationPolicy(ctx, input.escalation_policy_id);
  const heartbeat =
    input.type === 'heartbeat'
      ? {
          intervalSeconds: input.interval_seconds!,
          graceSeconds: input.grace_seconds ?? DEFAULT_HEARTBEAT_GRACE_SECONDS,
          severity: input.severity ?? 'critical',
        }
      : null;
  const row = await ctx.sql.begin(async (tx) => {
    const inserted = await integrations.insertIntegration(
      tx,
      {
        name: input.name,
        type: input.type,
        enabled: input.enabled,
        key: generateIntakeKey(),
        escalationPolicyId: input.escalation_policy_id,
        labels: input.labels,
        heartbeat,
      },
      ctx.now(),
    );
    await recordAudit(tx, ctx, {
      origin,
      entity: 'integration',
      entityId: inserted.id,
      action: 'create',
      before: null,
      after: integrationAuditView(inserted),
    });
    return inserted;
  });
  // Never the key: it is the sender's credential (docs/api.md#logs).
  ctx.logger.info({ integration_id: row.id, type: row.type }, 'integration created');
  return presentIntegration({ ...row, last_alert_at: null }, audience);
}
