import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TableScroll } from '../../components/TableScroll';
import { api } from '../../lib/api';
import { type StatusComponent, statusPageApi } from '../../lib/api-status-page';
import { useFocusOnClose } from '../../lib/focus';
import { canWrite, useMe } from '../../lib/session';
import { ComponentEditor } from './ComponentEditor';
import { componentStatusLabel } from './component-form';
import { TitleForm } from './TitleForm';
import './status-page.css';

const COMPONENTS_REFRESH_MS = 30_000;

/**
 * The public status page's configuration (docs/status-page.md): its title and its components, each
 * following the open incidents whose alerts match it, or set by hand. Admins write; everyone reads.
 */
export function StatusPagePage() {
  const me = useMe();
  const admin = canWrite(me.data, 'admin');
  const queryClient = useQueryClient();
  // A component's status follows incidents, so the list refreshes; but every refresh runs the page's
  // heaviest query (all open incidents' alerts), so far less often than the live lists: this screen is
  // for configuration, and an admin's own change shows at once through the invalidation after it.
  const components = useQuery({
    queryKey: ['status-page', 'components'],
    queryFn: statusPageApi.components,
    refetchInterval: COMPONENTS_REFRESH_MS,
  });
  // From the settings, not from /api/v1/status: browsers keep that public answer for 30 s.
  const settings = useQuery({ queryKey: ['settings'], queryFn: api.settings });
  const [editing, setEditing] = useState<StatusComponent | 'new' | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  useFocusOnClose(editing !== null, () => newButton.current);
  const remove = useMutation({
    mutationFn: (component: StatusComponent) => statusPageApi.deleteComponent(component.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['status-page'] }),
  });
  const list = components.data?.components ?? [];
  const confirmRemove = (component: StatusComponent) => {
    if (window.confirm(`Remove “${component.name}” from the status page?`)) remove.mutate(component);
  };

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Status page</h1>
          <p className="subtle small">
            The public page at{' '}
            <a href="/status" target="_blank" rel="noreferrer">
              /status
            </a>{' '}
            shows these components and the updates people publish from an incident’s page; nothing else of an
            incident is public.
          </p>
        </div>
        {admin && editing === null ? (
          <button ref={newButton} type="button" className="primary" onClick={() => setEditing('new')}>
            New component
          </button>
        ) : null}
      </div>
      {settings.data ? <TitleForm title={settings.data.status_page_title} admin={admin} /> : null}
      <ErrorMessage error={settings.error} prefix="Could not load the page title" />
      {editing !== null ? (
        <ComponentEditor
          key={editing === 'new' ? 'new' : editing.id}
          component={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ErrorMessage error={components.error} prefix="Could not load the components" />
      <ErrorMessage error={remove.error} prefix="The component was not removed" />
      <TableScroll label="Components" className="card" style={{ padding: 0 }}>
        <table aria-label="Components">
          <thead>
            <tr>
              <th>Position</th>
              <th>Name</th>
              <th>Group</th>
              <th>Follows alerts with</th>
              <th>Status now</th>
              {admin ? <th>Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {list.map((component) => (
              <tr key={component.id}>
                <td>{component.position}</td>
                <td style={{ fontWeight: 600 }}>{component.name}</td>
                <td>{component.group ?? '—'}</td>
                <td>
                  <span className="sp-match">
                    {Object.entries(component.match).map(([name, value]) => (
                      <code key={name}>
                        {name}={value}
                      </code>
                    ))}
                  </span>
                </td>
                <td>
                  <span className={`sp-status sp-${component.current_status}`}>
                    {componentStatusLabel[component.current_status]}
                  </span>
                  <span className="subtle small">
                    {component.status === null ? ' (automatic)' : ' (set by hand)'}
                  </span>
                </td>
                {admin ? (
                  <td>
                    <div className="actions">
                      <button
                        type="button"
                        aria-label={`Edit ${component.name}`}
                        onClick={() => setEditing(component)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="danger"
                        disabled={remove.isPending}
                        aria-label={`Remove ${component.name}`}
                        onClick={() => confirmRemove(component)}
                      >
                        Remove
                      </button>
                    </div>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {components.data && list.length === 0 ? (
          <p className="empty">No components yet: the page shows only incidents’ public updates.</p>
        ) : null}
      </TableScroll>
    </>
  );
}
