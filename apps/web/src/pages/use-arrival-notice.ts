import type { Incident } from '@firebreak/schema';
import { useEffect, useRef, useState } from 'react';

/**
 * The live list changes under the operator's eyes; a screen reader hears nothing of it. This is the
 * sentence for a polite live region when incidents appear between two polls ("New incident #12: …").
 * The first answer, and the first after the filters change, are what the page shows, not news.
 */
export function useArrivalNotice(incidents: Incident[] | undefined, filters: string): string {
  const seen = useRef<{ filters: string; ids: Set<string> } | null>(null);
  const [notice, setNotice] = useState('');
  useEffect(() => {
    if (!incidents) return;
    const ids = new Set(incidents.map((incident) => incident.id));
    const before = seen.current;
    seen.current = { filters, ids: before?.filters === filters ? new Set([...before.ids, ...ids]) : ids };
    if (!before || before.filters !== filters) return;
    const fresh = incidents.filter((incident) => !before.ids.has(incident.id));
    const [first] = fresh;
    if (!first) return;
    setNotice(
      fresh.length === 1
        ? `New incident #${first.number}: ${first.title}`
        : `${fresh.length} new incidents: ${fresh.map((incident) => `#${incident.number} ${incident.title}`).join('; ')}`,
    );
  }, [incidents, filters]);
  return notice;
}
