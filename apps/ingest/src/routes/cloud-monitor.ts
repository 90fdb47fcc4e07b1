import { webhookIntegrations } from '@firebreak/domain';
import { addRawOperation, answer, defineOperation, type HttpApp } from '@firebreak/http';
import { SnsEnvelope } from '@firebreak/schema';
import { z } from 'zod';
import { IntakeAnswer, intakeAnswers } from './intake-answer';
import type { SnsDelivery } from './sns-delivery';

const { cloudwatch } = webhookIntegrations;

/** What SNS may be answered: alarms recorded, or a subscription confirmed or ended. */
export const snsAnswer = z.union([
  IntakeAnswer,
  z.object({ confirmed: z.literal(true), topic_arn: z.string() }),
  z.object({ unsubscribed: z.literal(true), topic_arn: z.string() }),
]);

const operation = defineOperation({
  method: 'post',
  path: cloudwatch.path,
  access: 'public',
  summary: 'Record CloudWatch alarms delivered by Amazon SNS',
  description:
    'SNS posts `text/plain` JSON. Every message’s signature is verified with the certificate of an allowed `SigningCertURL`, and its topic checked against the allowlist when one is set. Subscription confirmations are confirmed by fetching `SubscribeURL`.',
  request: {
    body: { content: { 'text/plain': { schema: SnsEnvelope } }, required: true },
  },
  responses: {
    ...intakeAnswers,
    200: answer('Alarms recorded, or a subscription confirmed or ended', snsAnswer),
  },
});

/** CloudWatch alarms through SNS at the fixed path (the delivery itself: sns-delivery.ts). */
export function addCloudMonitorRoute(app: HttpApp, sns: SnsDelivery): void {
  addRawOperation(app, operation, (c) => sns.receive(c, cloudwatch.id));
}
