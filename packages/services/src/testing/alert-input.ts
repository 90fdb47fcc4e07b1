import type { AlertInput } from '@firebreak/schema';

/** A firing critical alert as a webhook's parser hands it to the intake (tests only). */
export function criticalAlert(externalId: string, more: Partial<AlertInput> = {}): AlertInput {
  return {
    title: `Checkout down ${externalId}`,
    description: null,
    severity: 'critical',
    status: 'firing',
    externalId,
    fingerprint: null,
    source: null,
    labels: {},
    annotations: {},
    startedAt: new Date(),
    endedAt: null,
    ...more,
  };
}
