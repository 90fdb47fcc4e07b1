import {
  alertsOrThrow,
  isAllowedCertUrl,
  isAllowedSubscribeUrl,
  parseSnsEnvelope,
  verifySnsSignature,
  type WebhookIntegrationId,
  webhookIntegrations,
  webhookParsers,
} from '@firebreak/domain';
import { type AppEnv, parseJson } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import {
  type IntakeSource,
  readSnsTopicAllowlist,
  recordAlerts,
  reportInvalidSignature,
} from '@firebreak/services';
import type { Context } from 'hono';
import type { IngestDeps } from '../deps';
import { type IntakeGate, rawJsonBody } from '../intake';
import { SnsCertificateCache } from '../sns-certificates';

const { cloudwatch } = webhookIntegrations;

// The certificate and subscribe URLs must match SNS_CERT_URL_PATTERN; loopback hosts are only ever
// allowed when that pattern itself names them (tests), never by the default pattern.
const urlOptions = { allowLoopback: true };

/** How old (or how far ahead of our clock) a signed SNS message may be (docs/integrations/alert-webhooks.md). */
export const SNS_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * CloudWatch alarms through SNS, for the fixed path and for keyed intake alike: `text/plain` JSON,
 * every message's signature verified with the certificate of an allowed `SigningCertURL`, the topic
 * checked against the allowlist when one is set, subscriptions confirmed by fetching `SubscribeURL`,
 * unsubscriptions logged, alarms recorded. The signature and the topic are about where the message
 * comes from, so a key (which says where it is going) does not replace them.
 */
export class SnsDelivery {
  // One cache per process: a delivery burst must not mean a certificate download per message.
  private readonly certificates = new SnsCertificateCache();

  constructor(
    private readonly deps: IngestDeps,
    private readonly gate: IntakeGate,
  ) {}

  async receive(c: Context<AppEnv>, from: WebhookIntegrationId | IntakeSource): Promise<Response> {
    const { ctx, config } = this.deps;
    // SNS declares its JSON envelope as text/plain.
    const raw = await rawJsonBody(c, ['text/plain']);
    const parsed = parseSnsEnvelope(parseJson(raw));
    if (!parsed.ok)
      throw new AppError('validation_failed', 'The request is not an SNS message.', parsed.problems);
    const envelope = parsed.envelope;
    const integrationId = typeof from === 'string' ? undefined : (from.integrationId ?? undefined);
    const logger = c.get('logger').child({
      integration: cloudwatch.id,
      integration_id: integrationId,
      sns_message_id: envelope.MessageId,
    });
    const refused = (fields: Record<string, unknown>) =>
      reportInvalidSignature(ctx, cloudwatch.id, {
        request_id: c.get('requestId'),
        integration_id: integrationId,
        sns_message_id: envelope.MessageId,
        ...fields,
      });

    if (!isAllowedCertUrl(envelope.SigningCertURL, config.snsCertUrlPattern, urlOptions)) {
      refused({ why: 'certificate URL not allowed', url: envelope.SigningCertURL });
      throw new AppError(
        'invalid_signature',
        'SigningCertURL is not an SNS certificate URL this service trusts.',
      );
    }
    const certificate = await this.certificates.get(envelope.SigningCertURL);
    if (!verifySnsSignature(envelope, certificate)) {
      refused({ why: 'signature does not verify' });
      throw new AppError('invalid_signature', 'The SNS message signature does not verify.');
    }

    // Checked after the signature, which covers Timestamp: a captured message, valid for ever as far
    // as its signature goes, is only accepted for an hour (SNS's own retries end well before that).
    const sentAt = Date.parse(envelope.Timestamp);
    const age = ctx.now().getTime() - sentAt;
    if (Number.isNaN(sentAt) || age > SNS_MAX_AGE_MS || age < -SNS_MAX_AGE_MS) {
      refused({ why: 'message too old', timestamp: envelope.Timestamp });
      throw new AppError(
        'invalid_signature',
        'The SNS message Timestamp is more than an hour from now: refused as a possible replay.',
      );
    }

    const topics = await readSnsTopicAllowlist(ctx);
    if (topics !== null && !topics.includes(envelope.TopicArn)) {
      refused({ why: 'topic not allowed', topic_arn: envelope.TopicArn });
      throw new AppError(
        'invalid_signature',
        'This SNS topic is not allowed to deliver here (Settings → Integrations).',
      );
    }

    if (envelope.Type === 'SubscriptionConfirmation') {
      if (!isAllowedSubscribeUrl(envelope.SubscribeURL, config.snsCertUrlPattern, urlOptions)) {
        throw new AppError('validation_failed', 'SubscribeURL is not an SNS URL this service trusts.');
      }
      await confirmSubscription(envelope.SubscribeURL);
      logger.info({ topic_arn: envelope.TopicArn }, 'sns subscription confirmed');
      return c.json({ confirmed: true, topic_arn: envelope.TopicArn });
    }
    if (envelope.Type === 'UnsubscribeConfirmation') {
      logger.warn(
        { topic_arn: envelope.TopicArn },
        'sns subscription ended: this topic no longer delivers alarms',
      );
      return c.json({ unsubscribed: true, topic_arn: envelope.TopicArn });
    }
    const receivedAt = ctx.now();
    const result = webhookParsers.cloudwatch(envelope, receivedAt);
    if (result.ok && result.ignored?.length)
      logger.info({ ignored: result.ignored }, 'sns notification ignored');
    const alerts = alertsOrThrow(result);
    return c.json(await this.gate.run(() => recordAlerts(ctx, from, alerts, receivedAt)));
  }
}

async function confirmSubscription(url: string): Promise<void> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000), redirect: 'error' });
    if (res.ok) return;
    throw new Error(`answered ${res.status}`);
  } catch (error) {
    // SNS sends the confirmation again on 5xx; a transient failure must not lose the subscription.
    throw new AppError('service_unavailable', `Confirming the SNS subscription failed: ${String(error)}`, {
      retry_after_seconds: 20,
    });
  }
}
