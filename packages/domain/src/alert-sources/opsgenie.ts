import {
  type AlertInput,
  type AlertSeverity,
  alertLimits,
  OpsgenieCreateAlert,
  OpsgenieUpdateDescription,
  OpsgenieUpdateMessage,
  opsgenieIdentifierTypes,
} from '@firebreak/schema';
import { clip, presentEntries } from './alert-text';
import { problemsOf } from './parse-result';
import type { SenderAlertRef } from './sender-event';

/** The `source` of every alert received through Opsgenie's Alert API. */
export const OPSGENIE_SOURCE = 'opsgenie';

/** A parsed create request, or Opsgenie's 422 `errors`: one message per field. */
export type OpsgenieCreateParse =
  | { ok: true; alias: string; alert: AlertInput }
  | { ok: false; errors: Record<string, string> };

// P1–P2 page as critical, P3 (Opsgenie's default) is a warning, P4–P5 are information.
const priorities: Record<string, AlertSeverity> = {
  P1: 'critical',
  P2: 'critical',
  P3: 'warning',
  P4: 'info',
  P5: 'info',
};
const DEFAULT_PRIORITY = 'P3';

/**
 * Opsgenie's create alert (`POST /v2/alerts`) → one alert. `alias` is the `external_id`; without one,
 * `newAlias` (Opsgenie, too, gives an alert without alias an identity of its own, so two such requests
 * are two alerts). `message` is the title, `priority` the severity (an unknown one counts as P3: a
 * typo in a sender's template must not lose the alert), tags become labels (`tagsToLabels`), `entity`
 * and `source` labels of those names (winning over a tag of the same name); `details` become
 * annotations, beside `priority`, `tags`, `responders`, `visibleTo`, `actions`, `user` and `note`.
 */
export function parseOpsgenieCreateAlert(payload: unknown, now: Date, newAlias: string): OpsgenieCreateParse {
  const parsed = OpsgenieCreateAlert.safeParse(payload);
  if (!parsed.success) {
    return {
      ok: false,
      errors: Object.fromEntries(
        problemsOf(parsed.error).map(({ path, message }) => [path || 'body', message]),
      ),
    };
  }
  const body = parsed.data;
  const alias = body.alias || newAlias;
  const priority = body.priority?.trim().toUpperCase() ?? '';
  const labels = tagsToLabels(body.tags ?? []);
  for (const name of ['entity', 'source'] as const) {
    const value = body[name]?.trim();
    if (value) labels[name] = clip(value, alertLimits.labelValueLength);
  }
  const alert: AlertInput = {
    title: clip(body.message, alertLimits.titleLength),
    description: body.description ? clip(body.description, alertLimits.descriptionLength) : null,
    severity: priorities[priority] ?? priorities[DEFAULT_PRIORITY]!,
    status: 'firing',
    externalId: alias,
    fingerprint: null,
    source: OPSGENIE_SOURCE,
    labels,
    annotations: presentEntries({
      ...Object.fromEntries(
        Object.entries(body.details ?? {})
          .slice(0, alertLimits.entries - 8) // room for the fields below
          .map(([key, value]) => [clip(key, alertLimits.keyLength), value]),
      ),
      priority: priorities[priority] ? priority : DEFAULT_PRIORITY,
      tags: body.tags,
      responders: body.responders,
      visibleTo: body.visibleTo,
      actions: body.actions,
      user: body.user,
      note: body.note,
    }),
    startedAt: new Date(now),
    endedAt: null,
  };
  return { ok: true, alias, alert };
}

/** Field → message, as Opsgenie's 422 lists them (`body` for the body as a whole). */
function errorsOf(error: Parameters<typeof problemsOf>[0]): Record<string, string> {
  return Object.fromEntries(problemsOf(error).map(({ path, message }) => [path || 'body', message]));
}

/**
 * `PUT /v2/alerts/{identifier}/message` or `…/description` → the alert's new title or description
 * (cut to the alert's limits; an empty description clears it).
 */
export function parseOpsgenieTextUpdate(
  field: 'message' | 'description',
  payload: unknown,
):
  | { ok: true; change: { title: string } | { description: string | null } }
  | { ok: false; errors: Record<string, string> } {
  if (field === 'message') {
    const parsed = OpsgenieUpdateMessage.safeParse(payload);
    if (!parsed.success) return { ok: false, errors: errorsOf(parsed.error) };
    return { ok: true, change: { title: clip(parsed.data.message, alertLimits.titleLength) } };
  }
  const parsed = OpsgenieUpdateDescription.safeParse(payload);
  if (!parsed.success) return { ok: false, errors: errorsOf(parsed.error) };
  const description = parsed.data.description.trim();
  return {
    ok: true,
    change: { description: description ? clip(description, alertLimits.descriptionLength) : null },
  };
}

/**
 * Tags → labels, a rule that round-trips with `labelsToTags`: `name:value` (split at the first colon)
 * is the label `name` = `value`; a tag without a colon (or starting with one) is a label of that name
 * with the empty value, which routing rules match with `"*"`. Only a tag ending in a colon (`name:`)
 * comes back without it. Blank tags are skipped; a later tag wins over an earlier one of the same name.
 */
export function tagsToLabels(tags: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const tag of tags) {
    if (tag.trim() === '') continue;
    const colon = tag.indexOf(':');
    const [name, value] = colon > 0 ? [tag.slice(0, colon), tag.slice(colon + 1)] : [tag, ''];
    labels[clip(name, alertLimits.keyLength)] = clip(value, alertLimits.labelValueLength);
  }
  return labels;
}

/** Labels → tags, the inverse of `tagsToLabels`. */
export function labelsToTags(labels: Readonly<Record<string, string>>): string[] {
  return Object.entries(labels).map(([name, value]) => (value === '' ? name : `${name}:${value}`));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The alert an action's `{identifier}` names under `identifierType` (default `id`): `id` is Firebreak's
 * alert id, `alias` the alias it was created with. `tiny` is refused: Firebreak alerts have no short
 * number of their own. An `id` that is not a UUID names no alert (`ref: null`).
 */
export function opsgenieAlertRef(
  identifier: string,
  identifierType: string | undefined,
): { ok: true; ref: SenderAlertRef | null } | { ok: false; message: string } {
  const type = identifierType ?? 'id';
  if (!(opsgenieIdentifierTypes as readonly string[]).includes(type)) {
    return { ok: false, message: 'identifierType must be one of: id, alias, tiny.' };
  }
  if (type === 'tiny') {
    return {
      ok: false,
      message: 'identifierType=tiny is not supported: Firebreak alerts have no tiny id. Use alias or id.',
    };
  }
  if (type === 'alias') return { ok: true, ref: identifier === '' ? null : { externalId: identifier } };
  return { ok: true, ref: UUID.test(identifier) ? { alertId: identifier.toLowerCase() } : null };
}
