import { z } from 'zod';

/**
 * The wire formats of PagerDuty's Events API (v2 and v1) and of Opsgenie's Alert API, as their senders
 * post them to Firebreak unchanged (docs/integrations/pagerduty-opsgenie-apis.md). Objects are loose:
 * senders add fields without notice. Lengths the originals cut rather than refuse (a summary over 1024
 * characters, an Opsgenie message over 130) are clipped by the parsers, not refused here, so an
 * Alertmanager that never retries a 4xx does not lose the alert.
 */

const stringError = (issue: { input?: unknown }) =>
  issue.input === undefined ? 'Required.' : 'Must be a string.';
const required = z.string({ error: stringError }).trim().min(1, 'Must not be empty.');
const optionalText = z.string({ error: 'Must be a string.' }).nullish();
const anyList = z.array(z.unknown(), { error: 'Must be an array.' }).nullish();

export const pagerDutyActions = ['trigger', 'acknowledge', 'resolve'] as const;
export const pagerDutySeverities = ['critical', 'error', 'warning', 'info'] as const;

/** PagerDuty caps dedup keys (v2) and incident keys (v1) at 255 characters. */
const pagerDutyKey = z
  .string({ error: 'Must be a string.' })
  .max(255, 'Is at most 255 characters.')
  .nullish();

/**
 * `POST /v2/enqueue`: PagerDuty Events API v2. `payload` is required to trigger only, and read only then:
 * Alertmanager sends it on resolve too, where an empty summary (a template that prints nothing for a
 * resolved group) must not turn the resolve into a 400 it never retries, leaving the alert firing.
 */
export const PagerDutyEventV2 = z.preprocess(
  withoutPayloadUnlessTrigger,
  z
    .looseObject(
      {
        routing_key: required,
        event_action: z.enum(pagerDutyActions, { error: 'Must be one of: trigger, acknowledge, resolve.' }),
        dedup_key: pagerDutyKey,
        payload: z
          .looseObject(
            {
              summary: required,
              source: required,
              severity: z.enum(pagerDutySeverities, {
                error: 'Must be one of: critical, error, warning, info.',
              }),
              timestamp: optionalText,
              component: optionalText,
              group: optionalText,
              class: optionalText,
              custom_details: z.unknown().optional(),
            },
            { error: 'Must be an object.' },
          )
          .nullish(),
        links: anyList,
        images: anyList,
        client: optionalText,
        client_url: optionalText,
      },
      { error: 'The event must be a JSON object.' },
    )
    .superRefine((event, ctx) => {
      if (event.event_action === 'trigger' && !event.payload) {
        ctx.addIssue({ code: 'custom', path: ['payload'], message: 'Required to trigger.' });
      }
      if (event.event_action !== 'trigger' && !event.dedup_key) {
        ctx.addIssue({ code: 'custom', path: ['dedup_key'], message: `Required to ${event.event_action}.` });
      }
    }),
);
export type PagerDutyEventV2 = z.infer<typeof PagerDutyEventV2>;

/** The event without its `payload` when it acknowledges or resolves: a payload only describes a new alert. */
function withoutPayloadUnlessTrigger(event: unknown): unknown {
  if (typeof event !== 'object' || event === null || !('payload' in event)) return event;
  const { event_action: action } = event as { event_action?: unknown };
  if (action !== 'acknowledge' && action !== 'resolve') return event;
  const { payload: _ignored, ...rest } = event as Record<string, unknown>;
  return rest;
}

/** `POST /generic/2010-04-15/create_event.json`: PagerDuty Events API v1 (no severity, no payload). */
export const PagerDutyEventV1 = z
  .looseObject(
    {
      service_key: required,
      event_type: z.enum(pagerDutyActions, { error: 'Must be one of: trigger, acknowledge, resolve.' }),
      incident_key: pagerDutyKey,
      description: optionalText,
      details: z.unknown().optional(),
      client: optionalText,
      client_url: optionalText,
      contexts: anyList,
    },
    { error: 'The event must be a JSON object.' },
  )
  .superRefine((event, ctx) => {
    if (event.event_type === 'trigger' && !event.description?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['description'], message: 'Required to trigger.' });
    }
    if (event.event_type !== 'trigger' && !event.incident_key) {
      ctx.addIssue({ code: 'custom', path: ['incident_key'], message: `Required to ${event.event_type}.` });
    }
  });
export type PagerDutyEventV1 = z.infer<typeof PagerDutyEventV1>;

/** `POST /v2/alerts`: Opsgenie's create alert. Only `message` is required; `priority` defaults to P3. */
export const OpsgenieCreateAlert = z.looseObject(
  {
    message: required,
    alias: z.string({ error: 'Must be a string.' }).max(512, 'Is at most 512 characters.').nullish(),
    description: optionalText,
    responders: anyList,
    visibleTo: anyList,
    actions: z.array(z.string({ error: 'Must be a string.' }), { error: 'Must be an array.' }).nullish(),
    tags: z.array(z.string({ error: 'Must be a string.' }), { error: 'Must be an array.' }).nullish(),
    details: z.record(z.string(), z.unknown(), { error: 'Must be an object.' }).nullish(),
    entity: optionalText,
    source: optionalText,
    priority: optionalText,
    user: optionalText,
    note: optionalText,
  },
  { error: 'The body must be a JSON object.' },
);
export type OpsgenieCreateAlert = z.infer<typeof OpsgenieCreateAlert>;

/** The body of Opsgenie's close, acknowledge and notes actions; `note` is required for notes only. */
export const OpsgenieAlertAction = z.looseObject(
  { user: optionalText, source: optionalText, note: optionalText },
  { error: 'The body must be a JSON object.' },
);
export type OpsgenieAlertAction = z.infer<typeof OpsgenieAlertAction>;

export const opsgenieIdentifierTypes = ['id', 'alias', 'tiny'] as const;
export type OpsgenieIdentifierType = (typeof opsgenieIdentifierTypes)[number];

/** `PUT /v2/alerts/{identifier}/message`: a new message (title) for the alert. */
export const OpsgenieUpdateMessage = z.looseObject(
  { message: required },
  { error: 'The body must be a JSON object.' },
);

/**
 * `PUT /v2/alerts/{identifier}/description`: a new description for the alert. Missing is empty (which
 * clears it): Alertmanager leaves an empty description out of the body and sends `{}`.
 */
export const OpsgenieUpdateDescription = z.looseObject(
  { description: z.string({ error: 'Must be a string.' }).default('') },
  { error: 'The body must be a JSON object.' },
);
