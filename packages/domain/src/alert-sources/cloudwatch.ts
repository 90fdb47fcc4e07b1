import {
  type AlertInput,
  type AlertSeverity,
  alertLimits,
  CloudWatchAlarm,
  type SnsNotification,
} from '@firebreak/schema';
import { clip, clipId, firstText, presentEntries } from './alert-text';
import { accepted, type ParseResult, problemsOf, rejected } from './parse-result';
import { normalizeSeverity } from './severity';
import { webhookIntegrations } from './webhook-integrations';

export interface CloudWatchOptions {
  /** The SNS topic the alarm came through: its region stands in when the alarm has no `AlarmArn`. */
  topicArn?: string;
  /** CloudWatch has no severity; used when the description names none. Default `warning`. */
  defaultSeverity?: AlertSeverity;
  /** `ignore` (default): no alert, a note in `ignored`. `firing`: treat like ALARM. */
  insufficientData?: 'ignore' | 'firing';
}

/**
 * Our documented convention: `severity=critical` (or `severity: p1`…) in AlarmDescription
 * (docs/integrations/alert-webhooks.md#cloudwatch-via-sns, "Mapping").
 */
const severityInDescription = /\bseverity\s*[=:]\s*([a-z0-9_-]+)/i;

/**
 * The CloudWatch alarm inside an SNS Notification's `Message`: the JSON string as SNS delivers it, or
 * the already parsed object. ALARM → firing, OK → resolved, INSUFFICIENT_DATA per options (fields and
 * mapping: docs/integrations/alert-webhooks.md#cloudwatch-via-sns, "The alarm" and "Mapping").
 * Problems are reported under `Message` because that is where the sender put the document.
 */
export function parseCloudWatchAlarm(
  message: unknown,
  now: Date,
  options: CloudWatchOptions = {},
): ParseResult {
  let document = message;
  if (typeof message === 'string') {
    try {
      document = JSON.parse(message);
    } catch {
      return rejected([{ path: 'Message', message: 'Must be the JSON of a CloudWatch alarm.' }]);
    }
  }
  const parsed = CloudWatchAlarm.safeParse(document);
  if (!parsed.success) return rejected(problemsOf(parsed.error, 'Message'));
  const alarm = parsed.data;
  if (alarm.NewStateValue === 'INSUFFICIENT_DATA' && options.insufficientData !== 'firing') {
    return accepted([], [`Alarm ${alarm.AlarmName} went to INSUFFICIENT_DATA; no alert raised or resolved.`]);
  }
  return accepted([toAlertInput(alarm, now, options)]);
}

/** The alarm of a verified SNS Notification; the topic's ARN helps build the fallback dedup key. */
export function parseCloudWatchNotification(
  envelope: SnsNotification,
  now: Date,
  options: CloudWatchOptions = {},
): ParseResult {
  return parseCloudWatchAlarm(envelope.Message, now, { ...options, topicArn: envelope.TopicArn });
}

/** Field 4 of an ARN (`arn:aws:cloudwatch:us-east-1:…`): `Region` in the alarm is a display name. */
export function regionFromArn(arn: string | null | undefined): string | null {
  return arn?.startsWith('arn:') ? firstText(arn.split(':')[3]) : null;
}

function toAlertInput(alarm: CloudWatchAlarm, now: Date, options: CloudWatchOptions): AlertInput {
  const status = alarm.NewStateValue === 'OK' ? 'resolved' : 'firing';
  const changedAt = alarm.StateChangeTime ?? new Date(now);
  const region = regionFromArn(alarm.AlarmArn) ?? regionFromArn(options.topicArn);
  const trigger = alarm.Trigger ?? {};
  const description = firstText(alarm.AlarmDescription);
  const namedSeverity = description?.match(severityInDescription)?.[1];
  return {
    title: clip(alarm.AlarmName, alertLimits.titleLength),
    description: description === null ? null : clip(description, alertLimits.descriptionLength),
    severity: normalizeSeverity(namedSeverity) ?? options.defaultSeverity ?? 'warning',
    status,
    externalId: null,
    // The alarm ARN is stable across state changes, so ALARM and the later OK meet.
    fingerprint: clipId(
      firstText(alarm.AlarmArn) ??
        `cw:${firstText(alarm.AWSAccountId) ?? 'unknown'}:${region ?? 'unknown'}:${alarm.AlarmName}`,
      alertLimits.externalIdLength,
    ),
    source: webhookIntegrations.cloudwatch.source,
    labels: stringEntries({
      alarm_name: alarm.AlarmName,
      aws_account_id: alarm.AWSAccountId,
      region,
      namespace: trigger.Namespace,
      metric_name: trigger.MetricName,
    }),
    annotations: presentEntries({
      new_state_reason: alarm.NewStateReason,
      old_state_value: alarm.OldStateValue,
      new_state_value: alarm.NewStateValue,
      region_name: alarm.Region,
      trigger: alarm.Trigger,
    }),
    // The message only tells when the state changed: that is when an ALARM started or an OK ended it.
    startedAt: changedAt,
    endedAt: status === 'resolved' ? new Date(changedAt) : null,
  };
}

function stringEntries(entries: Record<string, unknown>): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [name, value] of Object.entries(entries)) {
    const text = firstText(value);
    if (text !== null) labels[name] = clip(text, alertLimits.labelValueLength);
  }
  return labels;
}
