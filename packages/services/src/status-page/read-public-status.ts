import { statusPageComponents, statusPageUpdates } from '@firebreak/db';
import {
  type PublicIncident,
  type PublicStatus,
  STATUS_PAGE_RESOLVED_DAYS,
  type StatusUpdateStatus,
} from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { readStatusPageTitle } from '../settings/status-page-settings';
import { effectiveStatus, overallStatus, publicHeading } from './rules';

const DAY_MS = 24 * 60 * 60 * 1000;
/** More would make a page nobody reads to the end; ongoing ones first, then the most recently updated. */
export const MAX_LISTED_INCIDENTS = 50;
/** An incident's newest updates; older ones stay in the console. */
export const MAX_PUBLIC_UPDATES_PER_INCIDENT = 20;

/**
 * What `/status`, its feed and `GET /api/v1/status` show (docs/status-page.md#what-is-public): only
 * what people published (updates, headings) and what admins named (components). No incident title,
 * description, label, alert, person or internal id is read into it, so none can leak.
 */
export async function readPublicStatus(ctx: ServiceContext): Promise<PublicStatus> {
  const now = ctx.now();
  const resolvedSince = new Date(now.getTime() - STATUS_PAGE_RESOLVED_DAYS * DAY_MS);
  const [title, componentRows, listed] = await Promise.all([
    readStatusPageTitle(ctx.sql),
    statusPageComponents.listComponentsWithSeverity(ctx.sql),
    statusPageUpdates.listListedIncidents(ctx.sql, resolvedSince, MAX_LISTED_INCIDENTS),
  ]);
  const updates = await statusPageUpdates.listUpdatesOf(
    ctx.sql,
    listed.map((row) => row.incident_id),
    MAX_PUBLIC_UPDATES_PER_INCIDENT,
  );
  const components = componentRows.map((row) => ({
    name: row.name,
    group: row.group_name,
    status: effectiveStatus(row.status, row.open_severity_rank),
  }));
  // Newest first within each incident, as they were read.
  const updatesOf = new Map<string, statusPageUpdates.StatusUpdateRow[]>();
  for (const update of updates) {
    const list = updatesOf.get(update.incident_id);
    if (list) list.push(update);
    else updatesOf.set(update.incident_id, [update]);
  }
  const incidents: PublicIncident[] = [];
  let ongoing = 0;
  for (const row of listed) {
    const own = updatesOf.get(row.incident_id) ?? [];
    const latest = own[0];
    if (!latest) continue;
    const status: StatusUpdateStatus = latest.status;
    // Ongoing by what was published alone, as the page lists it: resolving the incident internally
    // before the public "Resolved" update must not turn the banner green above an incident it still
    // shows as ongoing.
    if (status !== 'resolved') ongoing += 1;
    incidents.push({
      id: row.public_id,
      heading: publicHeading(row.title, row.component_names),
      status,
      components: row.component_names,
      started_at: row.first_published_at.toISOString(),
      updated_at: row.last_published_at.toISOString(),
      updates: own.map((update) => ({
        status: update.status,
        body: update.body,
        created_at: update.created_at.toISOString(),
      })),
    });
  }
  return {
    title,
    status: overallStatus(
      components.map((component) => component.status),
      ongoing,
    ),
    components,
    incidents,
    generated_at: now.toISOString(),
  };
}
