import { changeOriginOf, type Operations, principalOf } from '@firebreak/http';
import {
  createMaintenanceWindow,
  deleteMaintenanceWindow,
  listMaintenanceWindows,
} from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { maintenanceWindowOperations as op } from '../operations/maintenance-windows';

/** Members and admins schedule and end windows; viewers read them. */
export function addMaintenanceWindowRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  ops.add(op.list, async (c, { query }) =>
    c.json({ maintenance_windows: await listMaintenanceWindows(ctx, query) }),
  );
  ops.add(op.create, async (c, { body }) =>
    c.json(await createMaintenanceWindow(ctx, body, principalOf(c).user?.id ?? null, changeOriginOf(c)), 201),
  );
  ops.add(op.remove, async (c, { params }) => {
    await deleteMaintenanceWindow(ctx, params.id, changeOriginOf(c));
    return c.body(null, 204);
  });
}
