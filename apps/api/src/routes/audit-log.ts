import type { Operations } from '@firebreak/http';
import { listAuditLog } from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { auditLogOperations as op } from '../operations/audit-log';

/** Read-only: the log is written by the use cases, in the transaction of each change. */
export function addAuditLogRoutes(ops: Operations, deps: ApiDeps): void {
  ops.add(op.list, async (c, { query }) => c.json(await listAuditLog(deps.ctx, query)));
}
