export { listAuditLog } from './list';
export { type AuditActor, type ChangeOrigin, originFromPrincipal, systemOrigin } from './origin';
export { type AuditAction, type AuditChange, type AuditEntity, recordAudit } from './record';
export { REDACTED, redactSecrets } from './redact';
