// Typed calls of the status page's API (docs/status-page.md); the types come from @firebreak/schema.
import type {
  CreateStatusComponentInput,
  CreateStatusUpdateInput,
  IncidentStatusUpdates,
  SettingsView,
  StatusComponent,
  StatusUpdate,
  UpdateStatusComponentInput,
} from '@firebreak/schema';
import { del, get, patch, post } from './api-client';

export type { StatusComponent, StatusUpdate };

/** What a component form sends: the input with its defaults filled in, as the API will read it. */
export type ComponentInput = Omit<CreateStatusComponentInput, 'position'> & { position?: number };

const components = '/api/v1/status-page/components';
const incidentPath = (ref: string) => `/api/v1/incidents/${encodeURIComponent(ref)}/status-updates`;

export const statusPageApi = {
  components: () => get<{ components: StatusComponent[] }>(components),
  createComponent: (input: ComponentInput) => post<StatusComponent>(components, input),
  updateComponent: (id: string, input: UpdateStatusComponentInput) =>
    patch<StatusComponent>(`${components}/${encodeURIComponent(id)}`, input),
  deleteComponent: (id: string) => del(`${components}/${encodeURIComponent(id)}`),
  setTitle: (title: string) => patch<SettingsView>('/api/v1/settings', { status_page_title: title }),
  updates: (incidentRef: string) => get<IncidentStatusUpdates>(incidentPath(incidentRef)),
  publish: (incidentRef: string, input: CreateStatusUpdateInput) =>
    post<StatusUpdate>(incidentPath(incidentRef), input),
};
