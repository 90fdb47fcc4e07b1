// Test-only: an escalation policy of two short tiers, as the default, and a way to read what fired.
import { users } from '@firebreak/db';
import { CreateEscalationPolicyInput } from '@firebreak/schema';
import { createEscalationPolicy, type ServiceContext, setDefaultEscalationPolicy } from '@firebreak/services';

export async function defaultTwoTierPolicy(ctx: ServiceContext, timeoutSeconds = 1): Promise<string> {
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const first = await users.insertUser(ctx.sql, {
    email: `first-${stamp}@example.test`,
    name: 'First',
    role: 'member',
  });
  const second = await users.insertUser(ctx.sql, {
    email: `second-${stamp}@example.test`,
    name: 'Second',
    role: 'member',
  });
  const policy = await createEscalationPolicy(
    ctx,
    CreateEscalationPolicyInput.parse({
      name: `Two tiers ${stamp}`,
      tiers: [
        { target_type: 'users', user_ids: [first.id], timeout_seconds: timeoutSeconds },
        { target_type: 'users', user_ids: [second.id], timeout_seconds: timeoutSeconds },
      ],
    }),
  );
  await setDefaultEscalationPolicy(ctx, policy.id);
  return policy.id;
}

/** The escalation steps an incident's timeline shows, as "tier N: Name". */
export async function firedSteps(ctx: ServiceContext, incidentId: string): Promise<string[]> {
  const rows = await ctx.sql<{ data: { tier: number; targets: Array<{ name: string }> } }[]>`
    select data from timeline_entries where incident_id = ${incidentId} and type = 'escalation_triggered' order by seq`;
  return rows.map((row) => `tier ${row.data.tier}: ${row.data.targets.map((t) => t.name).join(', ')}`);
}
