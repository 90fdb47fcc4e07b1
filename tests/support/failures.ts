import type { Component, Metrics } from '@firebreak/metrics';

/** `firebreak_failures_total{component, reason}` as `/metrics` would show it (0 before the first). */
export async function failureCount(metrics: Metrics, component: Component, reason: string): Promise<number> {
  const metric = metrics.registry.getSingleMetric('firebreak_failures_total');
  if (!metric) return 0;
  const { values } = await metric.get();
  return values.find((v) => v.labels.component === component && v.labels.reason === reason)?.value ?? 0;
}
