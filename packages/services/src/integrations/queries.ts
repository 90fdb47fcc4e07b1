import { integrations } from '@firebreak/db';
import { AppError, type Integration } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { type IntegrationAudience, presentIntegration } from './present';

export const integrationNotFound = (id: string) => new AppError('not_found', `No integration ${id}.`);

/** Oldest first, each with the newest `received_at` of its alerts. */
export async function listIntegrations(
  ctx: ServiceContext,
  audience: IntegrationAudience,
): Promise<Integration[]> {
  return (await integrations.listIntegrations(ctx.sql)).map((row) => presentIntegration(row, audience));
}

export async function getIntegration(
  ctx: ServiceContext,
  id: string,
  audience: IntegrationAudience,
): Promise<Integration> {
  const row = await integrations.findIntegration(ctx.sql, id);
  if (!row) throw integrationNotFound(id);
  return presentIntegration(row, audience);
}
