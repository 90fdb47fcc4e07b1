// Test-only: a person with e-mail pages, a one-tier default policy that pages them, and readers.
import { CreateEscalationPolicyInput } from '@firebreak/schema';
import { createEscalationPolicy, type ServiceContext, setDefaultEscalationPolicy } from '@firebreak/services';

let counter = 0;

/** A member with one verified e-mail address and these rules, paged by the default policy's only tier. */
export async function pagedPerson(
  ctx: ServiceContext,
  rules: { method: 'chat' | 'email'; delay_minutes: number }[],
  name = 'Pat Paged',
): Promise<{ userId: string; email: string }> {
  counter += 1;
  const email = `paged-${counter}-${Date.now()}@example.test`;
  const [user] = await ctx.sql<{ id: string }[]>`
    insert into users (email, name, role) values (${email}, ${name}, 'member') returning id`;
  const [contact] = await ctx.sql<{ id: string }[]>`
    insert into contact_methods (user_id, type, address, verified_at)
    values (${user!.id}, 'email', ${email}, now()) returning id`;
  await ctx.sql`
    insert into notification_rules ${ctx.sql(
      rules.map((r, position) => ({
        user_id: user!.id,
        position,
        method: r.method,
        delay_minutes: r.delay_minutes,
        contact_method_id: r.method === 'email' ? contact!.id : null,
      })),
    )}`;
  return { userId: user!.id, email };
}

/** The default policy: one tier paging these people, repeating never, a long timeout. */
export async function pagingPolicy(ctx: ServiceContext, userIds: string[]): Promise<void> {
  const policy = await createEscalationPolicy(
    ctx,
    CreateEscalationPolicyInput.parse({
      name: `Paging ${Date.now()}-${Math.random()}`,
      tiers: [{ target_type: 'users', user_ids: userIds, timeout_seconds: 3600 }],
    }),
  );
  await setDefaultEscalationPolicy(ctx, policy.id);
}

/** An incident's pages as `rule:method:status`, in rule order. */
export async function deliveries(ctx: ServiceContext, incidentId: string) {
  const rows = await ctx.sql<{ rule_position: number; method: string; status: string }[]>`
    select rule_position, method, status from page_deliveries where incident_id = ${incidentId}
    order by user_id, rule_position`;
  return rows.map((r) => `${r.rule_position}:${r.method}:${r.status}`);
}

/** The acknowledge link in a page's text. */
export function ackLinkIn(text: string): string {
  const match = /https?:\/\/\S+\/api\/v1\/page\/[A-Za-z0-9_-]{70}/.exec(text);
  if (!match) throw new Error(`no acknowledge link in: ${text}`);
  return match[0];
}
