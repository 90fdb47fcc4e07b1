import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';

export interface NavItem {
  to: string;
  label: string;
  /** Shown in a menu of this name instead of the bar, which is as wide as a laptop screen. */
  group?: string;
}

/** The bar's links in order; a group's links sit in one menu where the group's first link would be. */
export function NavItems({ items }: { items: NavItem[] }) {
  const seen = new Set<string>();
  return (
    <>
      {items.map((item) => {
        if (!item.group) {
          return (
            <NavLink key={item.to} to={item.to}>
              {item.label}
            </NavLink>
          );
        }
        if (seen.has(item.group)) return null;
        seen.add(item.group);
        const members = items.filter((other) => other.group === item.group);
        return <NavMenu key={`group:${item.group}`} name={item.group} items={members} />;
      })}
    </>
  );
}

/** A disclosure (details/summary: keyboard and screen readers know it) that closes once a link is followed. */
function NavMenu({ name, items }: { name: string; items: NavItem[] }) {
  const { pathname } = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is what a new page asks for.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);
  // Like any menu: a click elsewhere or Escape closes it (Escape gives focus back to its name).
  useEffect(() => {
    const closeOutside = (event: MouseEvent) => {
      if (menu.current?.open && !menu.current.contains(event.target as Node)) menu.current.open = false;
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !menu.current?.open) return;
      menu.current.open = false;
      menu.current.querySelector('summary')?.focus();
    };
    document.addEventListener('click', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('click', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, []);
  const active = items.some((item) => pathname.startsWith(item.to));
  return (
    <details className="nav-group" ref={menu}>
      <summary className={active ? 'active' : undefined}>{name}</summary>
      <div className="nav-menu">
        {items.map((item) => (
          <NavLink key={item.to} to={item.to}>
            {item.label}
          </NavLink>
        ))}
      </div>
    </details>
  );
}
