import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { api } from '../lib/api';
import { forgetPushOnThisDevice } from '../lib/push';
import { useMe } from '../lib/session';
import { type NavItem, NavItems } from './NavItems';
import { ReadinessBanner } from './ReadinessBanner';

// `fromSettings`: an admin's page reached from Settings; listed here for its title, kept out of the
// bar, which is already as wide as a laptop screen. `group`: in that menu of the bar (NavItems).
const links: (NavItem & { fromSettings?: boolean })[] = [
  { to: '/incidents', label: 'Incidents' },
  { to: '/alerts', label: 'Alerts' },
  { to: '/integrations', label: 'Integrations' },
  { to: '/maintenance', label: 'Maintenance' },
  { to: '/routing', label: 'Routing' },
  { to: '/schedules', label: 'Schedules' },
  { to: '/escalation-policies', label: 'Escalation' },
  { to: '/my-oncall', label: 'My on-call' },
  { to: '/users', label: 'Users' },
  { to: '/settings', label: 'Settings' },
  { to: '/outgoing-webhooks', label: 'Outgoing webhooks', fromSettings: true },
  { to: '/import', label: 'Import' },
  { to: '/audit-log', label: 'Audit log', fromSettings: true },
  { to: '/action-items', label: 'Action items', group: 'Follow-up' },
  { to: '/handoff', label: 'Shift hand-off', group: 'Follow-up' },
  { to: '/analytics', label: 'Analytics', group: 'Follow-up' },
  { to: '/status-page', label: 'Status page', group: 'Follow-up' },
];

/** The page's name in the browser tab and in a screen reader's list of windows. */
function titleOf(pathname: string): string {
  const section = links.find((link) => pathname.startsWith(link.to));
  return section ? `${section.label} · Firebreak` : 'Firebreak';
}

export function Layout() {
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const shown = useRef(pathname);
  useEffect(() => {
    document.title = titleOf(pathname);
    // A client-side navigation leaves focus on the link that was followed, which may no longer exist;
    // moving it to the new page's content is what a page load would do, and a screen reader reads it.
    if (shown.current !== pathname) {
      shown.current = pathname;
      main.current?.focus();
    }
  }, [pathname]);
  const logout = async () => {
    try {
      // While still signed in: this browser's push pages must not reach whoever uses it next.
      await forgetPushOnThisDevice({ removeContactMethod: api.deleteContactMethod });
      await api.logout();
    } finally {
      queryClient.clear();
      navigate('/login');
    }
  };
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/incidents" className="brand" aria-label="Firebreak home">
          <span className="brand-mark" aria-hidden="true" />
          Firebreak
        </NavLink>
        <nav className="nav" aria-label="Main">
          <NavItems items={links.filter((link) => !link.fromSettings)} />
        </nav>
        <div className="whoami">
          <span>
            {me.data?.user?.name ?? 'API key'} · {me.data?.role}
          </span>
          <button type="button" onClick={logout}>
            Log out
          </button>
        </div>
      </header>
      <ReadinessBanner />
      <main id="main" ref={main} tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
