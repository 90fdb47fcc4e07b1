// Typed calls of the REST API (docs/api.md), one line each; the types come from @firebreak/schema.

import { webhookIntegrations } from '@firebreak/domain/browser';
import type {
  Alert,
  ApiKey,
  AuditLogPage,
  AuthConfig,
  CreateEscalationPolicyInput,
  CreateIntegrationInput,
  CreateMaintenanceWindowInput,
  CreateOutgoingWebhookInput,
  CreateScheduleInput,
  EscalationPolicy,
  HandoffDigest,
  ImportResult,
  Incident,
  IncidentSeverity,
  IncidentStatus,
  Integration,
  IntegrationType,
  MaintenanceWindow,
  OnCall,
  OnCallImportResult,
  OutgoingWebhook,
  Readiness,
  Role,
  RoutingRule,
  Schedule,
  SettingsView,
  TimelineEntry,
  UpdateIntegrationInput,
  UpdateOutgoingWebhookInput,
  User,
  WebhookDelivery,
} from '@firebreak/schema';
import { fetchAllPages } from './all-pages';
import { ApiError, del, get, patch, post, put, request } from './api-client';
import type {
  CalendarFeed,
  ContactMethod,
  CreateContactMethodInput,
  CreateOverrideInput,
  FinalShift,
  NotificationRule,
  NotificationRules,
  PagingMethods,
  ScheduleOverride,
} from './oncall-types';
import type {
  ActionItem,
  ActionItemStatus,
  CreateActionItemInput,
  PostmortemComment,
  PostmortemDocument,
  PostmortemTemplate,
  SavePostmortemInput,
  UpdateActionItemInput,
} from './postmortem-types';

export type Me = { kind: 'session' | 'api_key'; role: Role; user: User | null };
export type IncidentPatch = Partial<{
  status: IncidentStatus;
  severity: IncidentSeverity;
  title: string;
  description: string;
  commander_id: string | null;
}>;
/** Storm mode's settings (docs/api.md#storm-mode), any of them. */
export type StormSettings = Partial<
  Pick<
    SettingsView,
    'storm_mode_enabled' | 'storm_threshold_incidents' | 'storm_window_minutes' | 'storm_calm_minutes'
  >
>;

/** What happens around an incident (docs/api.md#settings): automatic post-mortem drafts, chat copied in. */
export type FollowupSettings = Partial<
  Pick<SettingsView, 'postmortem_auto_draft_min_minutes' | 'chat_timeline_sync'>
>;
export type ActionItemsQuery = { status?: ActionItemStatus; owner_id?: string; cursor?: string };

export type ChatUserSettings = Partial<
  Pick<SettingsView, 'chat_user_default_role' | 'chat_allow_unmatched_users'>
>;
export type NewIncident = { title: string; severity: IncidentSeverity; description?: string };
export type RuleInput = Pick<RoutingRule, 'name' | 'priority' | 'enabled' | 'match_criteria' | 'actions'>;
export type PreviewSample = { source: string | null; labels: Record<string, string>; severity: string };
export type PreviewResult = { rule: RoutingRule | null; outcome: string };
export type { Integration, IntegrationType, MaintenanceWindow, OutgoingWebhook, WebhookDelivery };
// Request bodies are the schema's own types, so a field the API adds or renames fails the type-check here.
export type IntegrationInput = CreateIntegrationInput;
export type IntegrationPatch = UpdateIntegrationInput;
export type MaintenanceWindowInput = CreateMaintenanceWindowInput;
/** The secret is write-only: omitted keeps it, null removes it. */
export type OutgoingWebhookInput = CreateOutgoingWebhookInput;

const id = encodeURIComponent;
const window_ = (from: Date, to: Date) =>
  new URLSearchParams({ from: from.toISOString(), to: to.toISOString() }).toString();

export const api = {
  login: (email: string, password: string) => post<{ user: User }>('/api/v1/auth/login', { email, password }),
  logout: () => post<void>('/api/v1/auth/logout'),
  me: () => get<Me>('/api/v1/auth/me'),
  /** Public: whether the login page offers SSO and the password form (docs/sso.md). */
  authConfig: () => get<AuthConfig>('/api/v1/auth/config'),

  incidents: (query: { status?: string; severity?: string; limit?: number }) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, String(value));
    return get<{ incidents: Incident[]; next_cursor: string | null }>(`/api/v1/incidents?${params}`);
  },
  incident: (ref: string) => get<Incident>(`/api/v1/incidents/${id(ref)}`),
  createIncident: (input: NewIncident) => post<Incident>('/api/v1/incidents', input),
  updateIncident: (ref: string, changes: IncidentPatch) =>
    patch<Incident>(`/api/v1/incidents/${id(ref)}`, changes),
  timeline: (ref: string) =>
    fetchAllPages<'entries', TimelineEntry>(`/api/v1/incidents/${id(ref)}/timeline`, 'entries'),
  addNote: (ref: string, text: string) => post<TimelineEntry>(`/api/v1/incidents/${id(ref)}/notes`, { text }),
  /** Pages the next tier of its policy now (docs/api.md#manual-escalation). */
  /** `expectedTier`: the `next_tier` shown; a tier paged meanwhile answers 409 and pages nothing. */
  escalateIncident: (ref: string, expectedTier?: number) =>
    post<Incident & { escalated_to_tier: number }>(
      `/api/v1/incidents/${id(ref)}/escalate`,
      expectedTier === undefined ? {} : { expected_tier: expectedTier },
    ),
  /** Every page, then newest received first (the API pages in a fixed order that is not by time). */
  incidentAlerts: async (ref: string) => {
    const { alerts } = await fetchAllPages<'alerts', Alert>(`/api/v1/incidents/${id(ref)}/alerts`, 'alerts');
    return { alerts: alerts.sort((a, b) => b.received_at.localeCompare(a.received_at)) };
  },
  requestSummary: (ref: string) => post<{ job_id: string }>(`/api/v1/incidents/${id(ref)}/summary`),
  requestPostmortem: (ref: string) => post<{ job_id: string }>(`/api/v1/incidents/${id(ref)}/postmortem`),
  /** The document, or null while none was written and no AI draft was ever requested (404). */
  postmortem: async (ref: string) => {
    try {
      return await get<PostmortemDocument>(`/api/v1/incidents/${id(ref)}/postmortem`);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'postmortem_not_found') return null;
      throw error;
    }
  },
  /** Creates or replaces it; a `version` that is no longer the current one answers 409 `postmortem_conflict`. */
  savePostmortem: (ref: string, input: SavePostmortemInput) =>
    put<PostmortemDocument>(`/api/v1/incidents/${id(ref)}/postmortem`, input),
  /** A same-origin link: the session cookie authorises the download. */
  postmortemMarkdownUrl: (ref: string) => `/api/v1/incidents/${id(ref)}/postmortem.md`,
  postmortemTemplates: () => get<{ items: PostmortemTemplate[] }>('/api/v1/postmortem-templates'),
  actionItems: (ref: string) =>
    get<{ items: ActionItem[] }>(`/api/v1/incidents/${id(ref)}/postmortem/action-items`),
  addActionItem: (ref: string, input: CreateActionItemInput) =>
    post<ActionItem>(`/api/v1/incidents/${id(ref)}/postmortem/action-items`, input),
  updateActionItem: (ref: string, itemId: string, changes: UpdateActionItemInput) =>
    patch<ActionItem>(`/api/v1/incidents/${id(ref)}/postmortem/action-items/${id(itemId)}`, changes),
  deleteActionItem: (ref: string, itemId: string) =>
    del(`/api/v1/incidents/${id(ref)}/postmortem/action-items/${id(itemId)}`),
  /** Across incidents, overdue first then by due date; `owner_id: 'me'` is the signed-in person. */
  allActionItems: (query: ActionItemsQuery) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
    return get<{ items: ActionItem[]; next_cursor: string | null }>(`/api/v1/action-items?${params}`);
  },
  postmortemComments: (ref: string) =>
    get<{ items: PostmortemComment[] }>(`/api/v1/incidents/${id(ref)}/postmortem/comments`),
  addPostmortemComment: (ref: string, body: string) =>
    post<PostmortemComment>(`/api/v1/incidents/${id(ref)}/postmortem/comments`, { body }),
  deletePostmortemComment: (ref: string, commentId: string) =>
    del(`/api/v1/incidents/${id(ref)}/postmortem/comments/${id(commentId)}`),
  /** A shift hand-off digest of the window (default the last 12 hours), written by AI in the background. */
  requestHandoffDigest: (window: { since?: string; until?: string }) =>
    post<{ id: string }>('/api/v1/handoff-digests', window),
  handoffDigest: (digestId: string) => get<HandoffDigest>(`/api/v1/handoff-digests/${id(digestId)}`),

  alerts: (query: { status?: string; source?: string }) => {
    const params = new URLSearchParams({ limit: '100' });
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
    return get<{ alerts: Alert[]; next_cursor: string | null }>(`/api/v1/alerts?${params}`);
  },

  routingRules: () => get<{ routing_rules: RoutingRule[] }>('/api/v1/routing-rules'),
  createRule: (input: RuleInput) => post<RoutingRule>('/api/v1/routing-rules', input),
  updateRule: (ruleId: string, input: Partial<RuleInput>) =>
    patch<RoutingRule>(`/api/v1/routing-rules/${id(ruleId)}`, input),
  deleteRule: (ruleId: string) => del(`/api/v1/routing-rules/${id(ruleId)}`),
  previewRouting: (sample: PreviewSample) => post<PreviewResult>('/api/v1/routing-rules/preview', sample),

  users: () => get<{ users: User[] }>('/api/v1/users'),
  user: (userId: string) => get<User>(`/api/v1/users/${id(userId)}`),
  createUser: (input: { email: string; name: string; role: Role; password?: string }) =>
    post<User>('/api/v1/users', input),
  updateUser: (
    userId: string,
    input: Partial<Pick<User, 'name' | 'role' | 'active' | 'slack_user_id' | 'shift_notices'>>,
  ) => patch<User>(`/api/v1/users/${id(userId)}`, input),

  schedules: () => get<{ schedules: Schedule[] }>('/api/v1/schedules'),
  onCall: (scheduleId: string) => get<OnCall>(`/api/v1/schedules/${id(scheduleId)}/on-call`),
  schedule: (scheduleId: string) => get<Schedule>(`/api/v1/schedules/${id(scheduleId)}`),
  createSchedule: (input: CreateScheduleInput) => post<Schedule>('/api/v1/schedules', input),
  /** `layers` replaces every layer. */
  updateSchedule: (scheduleId: string, input: CreateScheduleInput) =>
    patch<Schedule>(`/api/v1/schedules/${id(scheduleId)}`, input),
  deleteSchedule: (scheduleId: string) => del(`/api/v1/schedules/${id(scheduleId)}`),
  /** Who is on call between two instants, overrides applied (docs/api.md#on-call). */
  scheduleShifts: (scheduleId: string, from: Date, to: Date) =>
    get<{ shifts: FinalShift[] }>(`/api/v1/schedules/${id(scheduleId)}/shifts?${window_(from, to)}`),
  overrides: (scheduleId: string, from: Date, to: Date) =>
    get<{ overrides: ScheduleOverride[] }>(
      `/api/v1/schedules/${id(scheduleId)}/overrides?${window_(from, to)}`,
    ),
  createOverride: (scheduleId: string, input: CreateOverrideInput) =>
    post<ScheduleOverride>(`/api/v1/schedules/${id(scheduleId)}/overrides`, input),
  deleteOverride: (scheduleId: string, overrideId: string) =>
    del(`/api/v1/schedules/${id(scheduleId)}/overrides/${id(overrideId)}`),
  escalationPolicies: () => get<{ escalation_policies: EscalationPolicy[] }>('/api/v1/escalation-policies'),
  createEscalationPolicy: (input: CreateEscalationPolicyInput) =>
    post<EscalationPolicy>('/api/v1/escalation-policies', input),
  /** `tiers` replaces every tier. */
  updateEscalationPolicy: (policyId: string, input: CreateEscalationPolicyInput) =>
    patch<EscalationPolicy>(`/api/v1/escalation-policies/${id(policyId)}`, input),
  deleteEscalationPolicy: (policyId: string) => del(`/api/v1/escalation-policies/${id(policyId)}`),

  // The signed-in person's own on-call: shifts, calendar, how they are paged (docs/api.md#on-call).
  myShifts: (from: Date, to: Date) =>
    get<{ shifts: FinalShift[] }>(`/api/v1/users/me/shifts?${window_(from, to)}`),
  /** Shift notices are the one profile field a person changes on themselves. */
  setShiftNotices: (on: boolean) => patch<User>('/api/v1/users/me', { shift_notices: on }),
  createCalendarFeed: () => post<CalendarFeed>('/api/v1/users/me/calendar-feed'),
  revokeCalendarFeed: () => del('/api/v1/users/me/calendar-feed'),
  /** `default` is true while the person has set none and a chat message at once applies. */
  notificationRules: () => get<NotificationRules>('/api/v1/users/me/notification-rules'),
  setNotificationRules: (rules: NotificationRule[]) =>
    put<NotificationRules>('/api/v1/users/me/notification-rules', { rules }),
  contactMethods: () => get<{ contact_methods: ContactMethod[] }>('/api/v1/users/me/contact-methods'),
  addContactMethod: (input: CreateContactMethodInput) =>
    post<ContactMethod>('/api/v1/users/me/contact-methods', input),
  sendContactCode: (methodId: string) =>
    post<unknown>(`/api/v1/users/me/contact-methods/${id(methodId)}/send-code`),
  verifyContactMethod: (methodId: string, code: string) =>
    post<ContactMethod>(`/api/v1/users/me/contact-methods/${id(methodId)}/verify`, { code }),
  testContactMethod: (methodId: string) =>
    post<unknown>(`/api/v1/users/me/contact-methods/${id(methodId)}/test`),
  deleteContactMethod: (methodId: string) => del(`/api/v1/users/me/contact-methods/${id(methodId)}`),
  pagingMethods: () => get<PagingMethods>('/api/v1/paging/methods'),

  settings: () => get<SettingsView>('/api/v1/settings'),
  setSigningSecret: (secret: string | null) =>
    put<SettingsView>(`/api/v1/settings/integrations/${webhookIntegrations.generic.settingsSlug}`, {
      signing_secret: secret,
    }),
  setDefaultPolicy: (policyId: string | null) =>
    patch<SettingsView>('/api/v1/settings', { default_escalation_policy_id: policyId }),
  setFixedWebhooksEnabled: (enabled: boolean) =>
    patch<SettingsView>('/api/v1/settings', { fixed_webhooks_enabled: enabled }),
  setChatUserSettings: (changes: ChatUserSettings) => patch<SettingsView>('/api/v1/settings', changes),
  setStormSettings: (changes: StormSettings) => patch<SettingsView>('/api/v1/settings', changes),
  setFollowupSettings: (changes: FollowupSettings) => patch<SettingsView>('/api/v1/settings', changes),
  testChat: () => post<SettingsView['chat']>('/api/v1/settings/chat/test'),
  apiKeys: () => get<{ api_keys: ApiKey[] }>('/api/v1/api-keys'),
  createApiKey: (name: string, role: Role) =>
    post<{ id: string; name: string; token: string }>('/api/v1/api-keys', { name, role }),
  revokeApiKey: (keyId: string) => del(`/api/v1/api-keys/${id(keyId)}`),

  integrations: () => get<{ integrations: Integration[] }>('/api/v1/integrations'),
  createIntegration: (input: IntegrationInput) => post<Integration>('/api/v1/integrations', input),
  updateIntegration: (integrationId: string, changes: IntegrationPatch) =>
    patch<Integration>(`/api/v1/integrations/${id(integrationId)}`, changes),
  deleteIntegration: (integrationId: string) => del(`/api/v1/integrations/${id(integrationId)}`),
  rotateIntegrationKey: (integrationId: string) =>
    post<Integration>(`/api/v1/integrations/${id(integrationId)}/rotate-key`),

  maintenanceWindows: () => get<{ maintenance_windows: MaintenanceWindow[] }>('/api/v1/maintenance-windows'),
  createMaintenanceWindow: (input: MaintenanceWindowInput) =>
    post<MaintenanceWindow>('/api/v1/maintenance-windows', input),
  /** Ends an active window now (its held alerts are released); removes a scheduled or ended one. */
  deleteMaintenanceWindow: (windowId: string) => del(`/api/v1/maintenance-windows/${id(windowId)}`),

  outgoingWebhooks: () => get<{ outgoing_webhooks: OutgoingWebhook[] }>('/api/v1/outgoing-webhooks'),
  createOutgoingWebhook: (input: OutgoingWebhookInput) =>
    post<OutgoingWebhook>('/api/v1/outgoing-webhooks', input),
  updateOutgoingWebhook: (webhookId: string, changes: UpdateOutgoingWebhookInput) =>
    patch<OutgoingWebhook>(`/api/v1/outgoing-webhooks/${id(webhookId)}`, changes),
  deleteOutgoingWebhook: (webhookId: string) => del(`/api/v1/outgoing-webhooks/${id(webhookId)}`),
  webhookDeliveries: (webhookId: string) =>
    get<{ deliveries: WebhookDelivery[] }>(`/api/v1/outgoing-webhooks/${id(webhookId)}/deliveries`),

  importOnCall: (input: { url: string; api_token: string; dry_run: boolean }) =>
    post<OnCallImportResult>('/api/v1/imports/oncall', input),
  importOpsgenie: (input: { api_key: string; url: string; dry_run: boolean }) =>
    post<ImportResult>('/api/v1/imports/opsgenie', input),
  importPagerDuty: (input: { api_token: string; url: string; dry_run: boolean }) =>
    post<ImportResult>('/api/v1/imports/pagerduty', input),

  /** Admins only: changes to configuration, newest first (docs/api.md#audit-log). */
  auditLog: (query: Record<string, string | undefined>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
    return get<AuditLogPage>(`/api/v1/audit-log?${params}`);
  },

  /** `/ready` answers 503 with the same body when the database is down: both are a state, not an error. */
  readiness: async (): Promise<Readiness> => {
    const response = await fetch('/ready', { headers: { accept: 'application/json' } });
    return (await response.json()) as Readiness;
  },
};

export { ApiError, request };
