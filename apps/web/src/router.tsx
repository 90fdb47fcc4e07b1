import { createBrowserRouter, Navigate } from 'react-router';
import { Layout } from './components/Layout';
import { RequireLogin } from './components/RequireLogin';
import { AlertsPage } from './pages/AlertsPage';
import { IncidentsPage } from './pages/IncidentsPage';
import { IncidentPage } from './pages/incident/IncidentPage';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';

// The pages people open while being paged (login, incidents, an incident) are in the first bundle; the
// rest load when first visited, so a phone on a weak connection gets to the incident sooner.
export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  {
    element: (
      <RequireLogin>
        <Layout />
      </RequireLogin>
    ),
    children: [
      { index: true, element: <Navigate to="/incidents" replace /> },
      { path: 'incidents', element: <IncidentsPage /> },
      { path: 'incidents/:ref', element: <IncidentPage /> },
      {
        path: 'incidents/:ref/postmortem',
        lazy: async () => ({
          Component: (await import('./pages/postmortem/PostmortemPage')).PostmortemPage,
        }),
      },
      { path: 'alerts', element: <AlertsPage /> },
      {
        path: 'integrations',
        lazy: async () => ({
          Component: (await import('./pages/integrations/IntegrationsPage')).IntegrationsPage,
        }),
      },
      {
        path: 'maintenance',
        lazy: async () => ({
          Component: (await import('./pages/maintenance/MaintenancePage')).MaintenancePage,
        }),
      },
      {
        path: 'routing',
        lazy: async () => ({
          Component: (await import('./pages/routing/RoutingRulesPage')).RoutingRulesPage,
        }),
      },
      {
        path: 'schedules',
        lazy: async () => ({ Component: (await import('./pages/schedules/SchedulesPage')).SchedulesPage }),
      },
      {
        path: 'schedules/:id',
        lazy: async () => ({ Component: (await import('./pages/schedules/SchedulePage')).SchedulePage }),
      },
      {
        path: 'my-oncall',
        lazy: async () => ({ Component: (await import('./pages/my-oncall/MyOnCallPage')).MyOnCallPage }),
      },
      {
        path: 'escalation-policies',
        lazy: async () => ({
          Component: (await import('./pages/EscalationPoliciesPage')).EscalationPoliciesPage,
        }),
      },
      { path: 'users', lazy: async () => ({ Component: (await import('./pages/UsersPage')).UsersPage }) },
      {
        path: 'settings',
        lazy: async () => ({ Component: (await import('./pages/settings/SettingsPage')).SettingsPage }),
      },
      {
        path: 'status-page',
        lazy: async () => ({
          Component: (await import('./pages/status-page/StatusPagePage')).StatusPagePage,
        }),
      },
      {
        path: 'outgoing-webhooks',
        lazy: async () => ({
          Component: (await import('./pages/outgoing-webhooks/OutgoingWebhooksPage')).OutgoingWebhooksPage,
        }),
      },
      { path: 'import', lazy: async () => ({ Component: (await import('./pages/ImportPage')).ImportPage }) },
      {
        path: 'audit-log',
        lazy: async () => ({ Component: (await import('./pages/audit-log/AuditLogPage')).AuditLogPage }),
      },
      {
        path: 'action-items',
        lazy: async () => ({
          Component: (await import('./pages/action-items/ActionItemsPage')).ActionItemsPage,
        }),
      },
      {
        path: 'handoff',
        lazy: async () => ({ Component: (await import('./pages/handoff/HandoffPage')).HandoffPage }),
      },
      {
        path: 'analytics',
        lazy: async () => ({ Component: (await import('./pages/analytics/AnalyticsPage')).AnalyticsPage }),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
