// The personal on-call vocabulary as the UI lists it (docs/api.md#on-call, docs/paging.md); the shapes
// are the schema's own types, so a field the API renames fails the type-check here.
import type { ContactMethodType, NotificationMethod } from '@firebreak/schema';

export type {
  CalendarFeed,
  ContactMethod,
  ContactMethodType,
  CreateContactMethodInput,
  CreateOverrideInput,
  FinalShift,
  NotificationMethod,
  NotificationRule,
  NotificationRules,
  PagingMethods,
  ScheduleOverride,
} from '@firebreak/schema';

export const notificationMethods = [
  'chat',
  'email',
  'sms',
  'voice',
  'push',
  'telegram',
] as const satisfies readonly NotificationMethod[];

export const methodLabel: Record<NotificationMethod, string> = {
  chat: 'Chat message',
  email: 'E-mail',
  sms: 'Text message (SMS)',
  voice: 'Phone call',
  push: 'Push notification',
  telegram: 'Telegram',
};

export const addressTypes = [
  'email',
  'sms',
  'voice',
  'telegram',
] as const satisfies readonly ContactMethodType[];
