import { AppError, type ContactMethodType, type NotificationMethod } from '@firebreak/schema';

/** Which methods this server can send (the API builds it from `config.paging`; docs/paging.md). */
export type ConfiguredMethods = ReadonlySet<NotificationMethod>;

export function requireConfigured(configured: ConfiguredMethods, type: ContactMethodType): void {
  if (!configured.has(type)) {
    throw new AppError('validation_failed', `${type} is not configured on this server.`, [
      { path: 'type', message: `${type} is not configured on this server (docs/paging.md)` },
    ]);
  }
}
