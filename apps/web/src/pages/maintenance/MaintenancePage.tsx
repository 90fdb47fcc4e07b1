import type { MaintenanceWindowStatus } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TableScroll } from '../../components/TableScroll';
import { api, type MaintenanceWindow } from '../../lib/api';
import { useFocusOnClose } from '../../lib/focus';
import { formatDateTime } from '../../lib/format';
import { LIVE_INTERVAL_MS } from '../../lib/live';
import { canWrite, useMe } from '../../lib/session';
import { describeWindowMatch } from './maintenance-form';
import { NewMaintenanceForm } from './NewMaintenanceForm';

const statusText: Record<MaintenanceWindowStatus, string> = {
  scheduled: 'Scheduled',
  active: 'Active',
  ended: 'Ended',
};

/** Windows hold matching alerts back; those still firing when a window ends open incidents then. */
export function MaintenancePage() {
  const me = useMe();
  // Members schedule and end windows as they work incidents; viewers read (docs/api.md#maintenance-windows).
  const writer = canWrite(me.data, 'member');
  const queryClient = useQueryClient();
  // A window turns active and ended by the clock alone, so the list refreshes like the live lists.
  const windows = useQuery({
    queryKey: ['maintenance-windows'],
    queryFn: api.maintenanceWindows,
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const integrations = useQuery({ queryKey: ['integrations'], queryFn: api.integrations });
  const users = useQuery({ queryKey: ['users'], queryFn: api.users });
  const [creating, setCreating] = useState(false);
  const newButton = useRef<HTMLButtonElement>(null);
  useFocusOnClose(creating, () => newButton.current);
  const remove = useMutation({
    mutationFn: (entry: MaintenanceWindow) => api.deleteMaintenanceWindow(entry.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['maintenance-windows'] }),
  });
  const integrationList = integrations.data?.integrations ?? [];
  const integrationName = (id: string) => integrationList.find((i) => i.id === id)?.name ?? id;
  const userName = (id: string | null) =>
    id ? (users.data?.users.find((u) => u.id === id)?.name ?? id) : '—';
  const list = windows.data?.maintenance_windows ?? [];

  const endOrDelete = (entry: MaintenanceWindow) => {
    const question =
      entry.status === 'active'
        ? `End "${entry.name}" now? Alerts it holds that are still firing open incidents.`
        : `Delete the window "${entry.name}"?`;
    if (window.confirm(question)) remove.mutate(entry);
  };

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Maintenance windows</h1>
          <p className="subtle small">
            While a window is active, the alerts it matches are stored but page nobody; when it ends, those
            still firing open incidents as if they had just arrived.
          </p>
        </div>
        {writer && !creating ? (
          <button ref={newButton} type="button" className="primary" onClick={() => setCreating(true)}>
            New window
          </button>
        ) : null}
      </div>
      {creating ? (
        <NewMaintenanceForm integrations={integrationList} onClose={() => setCreating(false)} />
      ) : null}
      <ErrorMessage error={windows.error} prefix="Could not load maintenance windows" />
      <ErrorMessage error={remove.error} prefix="The window was not changed" />
      <TableScroll label="Maintenance windows" className="card" style={{ padding: 0 }}>
        <table aria-label="Maintenance windows">
          <thead>
            <tr>
              <th>Name</th>
              <th>Status</th>
              <th>Starts</th>
              <th>Ends</th>
              <th>Holds back</th>
              <th>Created by</th>
              {writer ? <th>Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {list.map((entry) => (
              <tr key={entry.id}>
                <td style={{ fontWeight: 600 }}>{entry.name}</td>
                <td>
                  <span className={`badge mw-${entry.status}`}>{statusText[entry.status]}</span>
                </td>
                <td>{formatDateTime(entry.starts_at)}</td>
                <td>{formatDateTime(entry.ends_at)}</td>
                <td>{describeWindowMatch(entry.match, integrationName)}</td>
                <td>{userName(entry.created_by)}</td>
                {writer ? (
                  <td>
                    <button
                      type="button"
                      className="danger"
                      disabled={remove.isPending}
                      aria-label={`${entry.status === 'active' ? 'End now' : 'Delete'} ${entry.name}`}
                      onClick={() => endOrDelete(entry)}
                    >
                      {entry.status === 'active' ? 'End now' : 'Delete'}
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {windows.data && list.length === 0 ? <p className="empty">No maintenance windows.</p> : null}
      </TableScroll>
    </>
  );
}
