import type { ComponentStatus, StatusUpdateStatus } from '@firebreak/schema';

// The words the public page and its feed use; a status is always written out, never a colour alone.

export const componentStatusText: Record<ComponentStatus, string> = {
  operational: 'Operational',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};

export const overallStatusText: Record<ComponentStatus, string> = {
  operational: 'All systems operational',
  degraded: 'Some systems are degraded',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};

export const updateStatusText: Record<StatusUpdateStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** In UTC, said so: the page is read from every time zone and has no script to convert. */
export function formatUtc(iso: string): string {
  return `${dateFormat.format(new Date(iso))} UTC`;
}
