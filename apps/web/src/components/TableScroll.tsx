import type { CSSProperties, ReactNode } from 'react';

/**
 * A wide table's box, which scrolls sideways on a narrow screen. Rows without a link or button give a
 * keyboard no way in, so the box itself takes focus (arrow keys then scroll it) and is a region named
 * after its table, for a screen reader to announce what it entered.
 */
export function TableScroll({
  label,
  className = '',
  style,
  children,
}: {
  label: string;
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <section
      className={`table-wrap ${className}`.trim()}
      style={style}
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable to be scrolled.
      tabIndex={0}
    >
      {children}
    </section>
  );
}
