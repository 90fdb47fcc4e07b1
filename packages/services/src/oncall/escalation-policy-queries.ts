import { escalationPolicies } from '@firebreak/db';
import type { EscalationPolicy } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentEscalationPolicy } from './present';
import { notFound } from './write-errors';

/** By name, without pages (a handful per installation). */
export async function listEscalationPolicies(ctx: ServiceContext): Promise<EscalationPolicy[]> {
  return (await escalationPolicies.findPolicies(ctx.sql)).map(presentEscalationPolicy);
}

export async function getEscalationPolicy(ctx: ServiceContext, id: string): Promise<EscalationPolicy> {
  const record = await escalationPolicies.findPolicy(ctx.sql, id);
  if (!record) throw notFound('escalation policy', id);
  return presentEscalationPolicy(record);
}
