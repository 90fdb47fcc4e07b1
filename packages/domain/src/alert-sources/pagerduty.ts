import {
  type AlertInput,
  type AlertSeverity,
  alertLimits,
  PagerDutyEventV1,
  PagerDutyEventV2,
  type pagerDutySeverities,
} from '@firebreak/schema';
import { clip, presentEntries } from './alert-text';
import { problemsOf } from './parse-result';
import { instantOr, problemSentences, type SenderEvent, textOrUndefined } from './sender-event';

/** The `source` of every alert received through PagerDuty's Events API, v2 or v1. */
export const PAGERDUTY_SOURCE = 'pagerduty';

/**
 * A parsed event: the key it names its integration by (`routing_key`, v1's `service_key`), the dedup key
 * the answer repeats, and what to do. A rejection lists one sentence per problem, as PagerDuty's 400 does.
 */
export type PagerDutyParse =
  | { ok: true; routingKey: string; dedupKey: string; event: SenderEvent }
  | { ok: false; errors: string[] };

// PagerDuty's four severities onto our three: `error` pages like `critical` (Alertmanager sends `error`
// unless configured otherwise, and PagerDuty treats both as high urgency by default).
const severities: Record<(typeof pagerDutySeverities)[number], AlertSeverity> = {
  critical: 'critical',
  error: 'critical',
  warning: 'warning',
  info: 'info',
};

/**
 * PagerDuty Events API v2 (`POST /v2/enqueue`) → one event. `dedup_key` is the alert's `external_id`;
 * without one, a trigger takes `newDedupKey` (PagerDuty makes a random one too). `summary` is the
 * title; `component`, `group`, `class` and the payload's `source` become labels of those names;
 * `custom_details` become annotations (each key of an object, else one `custom_details` annotation),
 * with `links`, `images`, `client` and `client_url` beside them. The alert's own `source` is `pagerduty`.
 */
export function parsePagerDutyEventV2(payload: unknown, now: Date, newDedupKey: string): PagerDutyParse {
  const parsed = PagerDutyEventV2.safeParse(payload);
  if (!parsed.success) return { ok: false, errors: problemSentences(problemsOf(parsed.error)) };
  const event = parsed.data;
  const dedupKey = event.dedup_key || newDedupKey;
  if (event.event_action !== 'trigger') {
    return {
      ok: true,
      routingKey: event.routing_key,
      dedupKey,
      event: { action: event.event_action, ref: { externalId: dedupKey } },
    };
  }
  // The schema refuses a trigger without a payload.
  const body = event.payload!;
  const labels = labelsOf({
    component: body.component,
    group: body.group,
    class: body.class,
    source: body.source,
  });
  const alert: AlertInput = {
    title: clip(body.summary, alertLimits.titleLength),
    description: null,
    severity: severities[body.severity],
    status: 'firing',
    externalId: dedupKey,
    fingerprint: null,
    source: PAGERDUTY_SOURCE,
    labels,
    annotations: presentEntries({
      ...detailsOf(body.custom_details, 'custom_details'),
      links: event.links,
      images: event.images,
      client: event.client,
      client_url: event.client_url,
    }),
    startedAt: instantOr(body.timestamp, now),
    endedAt: null,
  };
  return { ok: true, routingKey: event.routing_key, dedupKey, event: { action: 'trigger', alert } };
}

/**
 * PagerDuty Events API v1 (`POST /generic/2010-04-15/create_event.json`) → one event. v1 has no
 * severity: its triggers are `critical` (v1 services page at high urgency). `description` is the title,
 * `incident_key` the `external_id`, `details` the annotations (with `client`, `client_url`, `contexts`).
 */
export function parsePagerDutyEventV1(payload: unknown, now: Date, newIncidentKey: string): PagerDutyParse {
  const parsed = PagerDutyEventV1.safeParse(payload);
  if (!parsed.success) return { ok: false, errors: problemSentences(problemsOf(parsed.error)) };
  const event = parsed.data;
  const dedupKey = event.incident_key || newIncidentKey;
  if (event.event_type !== 'trigger') {
    return {
      ok: true,
      routingKey: event.service_key,
      dedupKey,
      event: { action: event.event_type, ref: { externalId: dedupKey } },
    };
  }
  const alert: AlertInput = {
    title: clip((event.description ?? '').trim(), alertLimits.titleLength),
    description: null,
    severity: 'critical',
    status: 'firing',
    externalId: dedupKey,
    fingerprint: null,
    source: PAGERDUTY_SOURCE,
    labels: {},
    annotations: presentEntries({
      ...detailsOf(event.details, 'details'),
      client: event.client,
      client_url: event.client_url,
      contexts: event.contexts,
    }),
    startedAt: new Date(now),
    endedAt: null,
  };
  return { ok: true, routingKey: event.service_key, dedupKey, event: { action: 'trigger', alert } };
}

/** The sender's details as annotations: an object's own keys, anything else under `name`. */
function detailsOf(details: unknown, name: string): Record<string, unknown> {
  if (details && typeof details === 'object' && !Array.isArray(details)) {
    return Object.fromEntries(
      Object.entries(details as Record<string, unknown>)
        .slice(0, alertLimits.entries - 8) // room for links, images, client… beside them
        .map(([key, value]) => [clip(key, alertLimits.keyLength), value]),
    );
  }
  return details === undefined || details === null ? {} : { [name]: details };
}

function labelsOf(candidates: Record<string, unknown>): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [name, value] of Object.entries(candidates)) {
    const text = textOrUndefined(value);
    if (text !== undefined) labels[name] = clip(text, alertLimits.labelValueLength);
  }
  return labels;
}
