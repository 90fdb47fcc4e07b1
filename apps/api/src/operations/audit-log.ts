import { answer, defineOperation, errorAnswers } from '@firebreak/http';
import { AuditLogPage, AuditLogQuery } from '@firebreak/schema';

/** The audit log is read by admins only: it names who changed what, credentials' names included. */
export const auditLogOperations = {
  list: defineOperation({
    method: 'get',
    path: '/api/v1/audit-log',
    access: 'admin',
    summary: 'Changes to configuration, newest first',
    request: { query: AuditLogQuery },
    responses: { 200: answer('A page', AuditLogPage), ...errorAnswers(400, 403) },
  }),
};
