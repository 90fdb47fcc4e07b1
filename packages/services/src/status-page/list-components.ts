import { statusPageComponents } from '@firebreak/db';
import { AppError, type StatusComponent } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentComponent } from './present';

export const componentNotFound = (id: string) => new AppError('not_found', `No status page component ${id}.`);

/** `GET /api/v1/status-page/components`: in page order, each with the status the page shows now. */
export async function listStatusComponents(ctx: ServiceContext): Promise<StatusComponent[]> {
  const rows = await statusPageComponents.listComponentsWithSeverity(ctx.sql);
  return rows.map((row) => presentComponent(row, row.open_severity_rank));
}
