import { createBrowserRouter, Navigate } from 'react-router';
import { Layout } from './components/Layout';
import { RequireLogin } from './components/RequireLogin';
import { AlertsPage } from './pages/AlertsPage';
import { AuditLogPage } from './pages/audit-log/AuditLogPage';
import { EscalationPoliciesPage } from './pages/EscalationPoliciesPage';
import { ImportPage } from './pages/ImportPage';
import { IncidentsPage } from './pages/IncidentsPage';
import { IncidentPage } from './pages/incident/IncidentPage';
import { IntegrationsPage } from './pages/integrations/IntegrationsPage';
import { LoginPage } from './pages/LoginPage';
import { MaintenancePage } from './pages/maintenance/MaintenancePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { OutgoingWebhooksPage } from './pages/outgoing-webhooks/OutgoingWebhooksPage';
import { RoutingRulesPage } from './pages/routing/RoutingRulesPage';
import { SchedulesPage } from './pages/schedules/SchedulesPage';
import { SettingsPage } from './pages/settings/SettingsPage';
import { UsersPage } from './pages/UsersPage';

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
      { path: 'alerts', element: <AlertsPage /> },
      { path: 'integrations', element: <IntegrationsPage /> },
      { path: 'maintenance', element: <MaintenancePage /> },
      { path: 'routing', element: <RoutingRulesPage /> },
      { path: 'schedules', element: <SchedulesPage /> },
      { path: 'escalation-policies', element: <EscalationPoliciesPage /> },
      { path: 'users', element: <UsersPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: 'outgoing-webhooks', element: <OutgoingWebhooksPage /> },
      { path: 'import', element: <ImportPage /> },
      { path: 'audit-log', element: <AuditLogPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
