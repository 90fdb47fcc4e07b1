import { z } from 'zod';

/**
 * Alerts: the generic webhook body (docs/integrations/alert-webhooks.md#generic), the normalised
 * `AlertInput` every source parser produces, the API `Alert` (docs/api.md#alerts), and the wire formats
 * of the source-specific webhooks (docs/integrations/alert-webhooks.md). The source formats live here and
 * not in `domain` because `domain` may not import zod; `domain/alert-sources` maps them to `AlertInput`.
 * Objects are never `.strict()`: senders add fields without notice, so unknown fields are accepted and
 * not stored (docs/integrations/alert-webhooks.md#rules-for-every-source).
 */

export const alertSeverities = ['critical', 'warning', 'info'] as const;
export const AlertSeverity = z.enum(alertSeverities, { error: 'Must be one of: critical, warning, info.' });
export type AlertSeverity = z.infer<typeof AlertSeverity>;

export const alertStatuses = ['firing', 'resolved'] as const;
export const AlertStatus = z.enum(alertStatuses, { error: 'Must be one of: firing, resolved.' });
export type AlertStatus = z.infer<typeof AlertStatus>;

/**
 * Bounds that keep one alert row reasonable. Texts and ids longer than these are clipped by the source
 * parsers (with a visible `…`), never refused: senders do not retry a 4xx, so a refusal would lose the
 * alert (docs/integrations/alert-webhooks.md#answers). Counts (alerts, labels) are still refused.
 */
export const alertLimits = {
  alertsPerRequest: 1000,
  titleLength: 1000,
  descriptionLength: 10_000,
  externalIdLength: 512,
  sourceLength: 200,
  entries: 256,
  keyLength: 256,
  labelValueLength: 4096,
} as const;

const entryCount = (value: object) => Object.keys(value).length <= alertLimits.entries;

/** String-to-string map used for routing; `maxProperties` is repeated as meta so the JSON Schema shows it. */
export const AlertLabels = z
  .record(
    z.string().min(1).max(alertLimits.keyLength),
    // Long values are clipped to labelValueLength by the parsers, not refused.
    z.string({ error: 'Label values must be strings.' }),
    {
      error: (issue) =>
        issue.code === 'invalid_key'
          ? `Label names must be 1 to ${alertLimits.keyLength} characters.`
          : 'Must be an object of string values.',
    },
  )
  .refine(entryCount, `At most ${alertLimits.entries} labels.`)
  .meta({ maxProperties: alertLimits.entries });

/** Free-form metadata (runbook and dashboard links…); values may be any JSON. */
export const AlertAnnotations = z
  .record(z.string().max(alertLimits.keyLength), z.unknown(), { error: 'Must be an object.' })
  .refine(entryCount, `At most ${alertLimits.entries} annotations.`)
  .meta({ maxProperties: alertLimits.entries });

// A zone is required so that a timestamp means the same instant whatever the server's time zone.
const IsoTimestamp = z.iso.datetime({
  offset: true,
  error: 'Must be an ISO 8601 timestamp with a time zone, e.g. 2026-05-04T12:00:00Z.',
});

const stringError = (issue: { input?: unknown }) =>
  issue.input === undefined ? 'Required.' : 'Must be a string.';
/** A text of any length: the parser clips it (ending in `…`) rather than refuse it; descriptions say to what. */
const clippedText = () => z.string({ error: stringError });

/**
 * One element of the generic webhook body (docs/integrations/alert-webhooks.md#generic). `null` is read
 * as "not given".
 */
export const GenericAlert = z.object(
  {
    title: clippedText()
      .trim()
      .min(1, 'Must not be empty.')
      .describe(
        `Shown in the UI and in chat. Longer than ${alertLimits.titleLength} characters: clipped, ending in …`,
      ),
    description: clippedText()
      .nullish()
      .describe(`Longer than ${alertLimits.descriptionLength} characters: clipped, ending in …`),
    severity: AlertSeverity.default('warning'),
    status: AlertStatus.default('firing').describe(
      'Send `resolved` with the same external_id to close the alert.',
    ),
    external_id: clippedText()
      .min(1, 'Must not be empty.')
      .nullish()
      .describe(
        `Stable identifier used for deduplication. Longer than ${alertLimits.externalIdLength} characters: shortened to a prefix and a hash of the whole.`,
      ),
    source: clippedText()
      .trim()
      .min(1, 'Must not be empty.')
      .nullish()
      .describe(`Name of the sending system. Longer than ${alertLimits.sourceLength} characters: clipped.`),
    labels: AlertLabels.nullish().describe('String key-value pairs used for filtering and routing.'),
    annotations: AlertAnnotations.nullish().describe('Extra metadata such as runbook and dashboard links.'),
    started_at: IsoTimestamp.nullish().describe('Defaults to the time of receipt.'),
  },
  { error: 'Each alert must be an object.' },
);
export type GenericAlert = z.infer<typeof GenericAlert>;

/** `POST /api/v1/webhooks/generic`: 1–1000 alerts (docs/integrations/alert-webhooks.md#generic). */
export const GenericWebhookBody = z
  .object(
    {
      alerts: z
        .array(GenericAlert, { error: 'Must be an array of alerts.' })
        .min(1, 'At least one alert is required.')
        .max(alertLimits.alertsPerRequest, `At most ${alertLimits.alertsPerRequest} alerts per request.`),
    },
    { error: 'The body must be a JSON object with an `alerts` array.' },
  )
  .meta({ title: 'Generic alert webhook body' });
export type GenericWebhookBody = z.infer<typeof GenericWebhookBody>;

/** JSON Schema (draft 2020-12) of what senders may post, i.e. the input side: defaulted fields are optional. */
export function genericWebhookJsonSchema(): z.core.JSONSchema.JSONSchema {
  return z.toJSONSchema(GenericWebhookBody, { io: 'input', target: 'draft-2020-12' });
}

/** What every source parser produces and the intake service stores (snake_case only on the wire). */
export interface AlertInput {
  title: string;
  description: string | null;
  severity: AlertSeverity;
  status: AlertStatus;
  externalId: string | null;
  fingerprint: string | null;
  source: string | null;
  labels: Record<string, string>;
  annotations: Record<string, unknown>;
  startedAt: Date;
  endedAt: Date | null;
}

/** The alert as the API shows it (docs/api.md#alerts). */
export const Alert = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  severity: AlertSeverity,
  status: AlertStatus,
  external_id: z.string().nullable(),
  source: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
  annotations: z.record(z.string(), z.unknown()),
  started_at: z.iso.datetime({ offset: true }),
  received_at: z.iso.datetime({ offset: true }),
  fingerprint: z.string().nullable(),
  ended_at: z.iso.datetime({ offset: true }).nullable(),
  incident_id: z.uuid().nullable(),
  /** The integration whose key received it; null for the fixed webhook paths. */
  integration_id: z.uuid().nullable(),
  /**
   * Why it opened nothing although it fires: held back by a maintenance window (until the window
   * ends), or suppressed by a routing rule.
   */
  suppressed_by: z.enum(['maintenance', 'routing_rule']).nullable(),
});
export type Alert = z.infer<typeof Alert>;

// ---- Source wire formats (docs/integrations/alert-webhooks.md) ----------------------------------------

/**
 * Timestamps as sources write them: Go RFC 3339 with nanoseconds and offsets, CloudWatch's `+0000`
 * (docs/integrations/alert-webhooks.md#rules-for-every-source). Parsed to a Date here; the Go zero time
 * stays a (year 1) Date for the parser to spot.
 */
export const SourceTimestamp = z
  .string({ error: 'Must be a timestamp string.' })
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/i,
    'Must be an RFC 3339 timestamp.',
  )
  .transform((value, ctx) => {
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) ctx.addIssue({ code: 'custom', message: 'Not a valid date.' });
    return date;
  });

const optionalText = z.string().nullish();

// Alertmanager `template.Alert` (docs/integrations/alert-webhooks.md#alertmanager); Grafana's
// `ExtendedAlert` adds fields to it (docs/integrations/alert-webhooks.md#grafana).
const prometheusAlertShape = {
  status: AlertStatus.optional(),
  labels: AlertLabels.nullish(),
  annotations: AlertAnnotations.nullish(),
  startsAt: SourceTimestamp.nullish(),
  endsAt: SourceTimestamp.nullish(),
  generatorURL: optionalText,
  fingerprint: z.string().nullish(),
};
const groupShape = {
  status: AlertStatus.optional(),
  groupKey: optionalText,
  groupLabels: AlertLabels.nullish(),
  commonLabels: AlertLabels.nullish(),
  commonAnnotations: AlertAnnotations.nullish(),
  externalURL: optionalText,
};
// Alertmanager sends whole groups; `max_alerts` is off by default, so the cap is a sanity bound only.
const groupAlerts = <T extends z.ZodType>(alert: T) =>
  z
    .array(alert, {
      error: (issue) => (issue.input === undefined ? 'Required.' : 'Must be an array of alerts.'),
    })
    .max(10_000, 'At most 10000 alerts.');
const payloadError = { error: 'Must be a JSON object.' };
const alertError = { error: 'Each alert must be an object.' };

export const AlertmanagerAlert = z.looseObject(prometheusAlertShape, alertError);
export const AlertmanagerPayload = z.looseObject(
  { ...groupShape, alerts: groupAlerts(AlertmanagerAlert) },
  payloadError,
);
export type AlertmanagerPayload = z.infer<typeof AlertmanagerPayload>;

export const GrafanaAlert = z.looseObject(
  {
    ...prometheusAlertShape,
    silenceURL: optionalText,
    dashboardURL: optionalText,
    panelURL: optionalText,
    imageURL: optionalText,
    values: z.record(z.string(), z.unknown()).nullish(),
    valueString: optionalText,
    ruleUID: optionalText,
  },
  alertError,
);
export const GrafanaPayload = z.looseObject(
  { ...groupShape, title: optionalText, alerts: groupAlerts(GrafanaAlert) },
  payloadError,
);
export type GrafanaPayload = z.infer<typeof GrafanaPayload>;

// SNS envelope (docs/integrations/alert-webhooks.md#cloudwatch-via-sns). Signed values must reach the
// verifier byte for byte: no trim, no transform.
const required = z.string({ error: stringError }).min(1, 'Must not be empty.');
const snsShape = {
  MessageId: required,
  TopicArn: required,
  Message: z.string({ error: stringError }),
  Timestamp: required,
  SignatureVersion: z.enum(['1', '2'], { error: 'Must be "1" or "2".' }),
  Signature: required,
  SigningCertURL: required,
};
const confirmationShape = { ...snsShape, SubscribeURL: required, Token: required };

export const SnsNotification = z.looseObject({
  ...snsShape,
  Type: z.literal('Notification'),
  Subject: z.string().optional(),
  UnsubscribeURL: z.string().optional(),
});
export const SnsSubscriptionConfirmation = z.looseObject({
  ...confirmationShape,
  Type: z.literal('SubscriptionConfirmation'),
});
export const SnsUnsubscribeConfirmation = z.looseObject({
  ...confirmationShape,
  Type: z.literal('UnsubscribeConfirmation'),
});
export const SnsEnvelope = z.discriminatedUnion(
  'Type',
  [SnsNotification, SnsSubscriptionConfirmation, SnsUnsubscribeConfirmation],
  { error: 'Must be Notification, SubscriptionConfirmation or UnsubscribeConfirmation.' },
);
export type SnsNotification = z.infer<typeof SnsNotification>;
export type SnsEnvelope = z.infer<typeof SnsEnvelope>;

// CloudWatch alarm JSON inside `Message` (docs/integrations/alert-webhooks.md#cloudwatch-via-sns).
// Hand-published partial messages are common: be lenient.
export const CloudWatchAlarm = z.looseObject(
  {
    AlarmName: clippedText().trim().min(1, 'Must not be empty.'),
    AlarmDescription: optionalText,
    AWSAccountId: optionalText,
    NewStateValue: z.enum(['ALARM', 'OK', 'INSUFFICIENT_DATA'], {
      error: 'Must be ALARM, OK or INSUFFICIENT_DATA.',
    }),
    NewStateReason: optionalText,
    OldStateValue: optionalText,
    StateChangeTime: SourceTimestamp.nullish(),
    Region: optionalText,
    AlarmArn: z.string().nullish(),
    Trigger: z.record(z.string(), z.unknown()).nullish(),
  },
  { error: 'Must be a CloudWatch alarm object.' },
);
export type CloudWatchAlarm = z.infer<typeof CloudWatchAlarm>;
