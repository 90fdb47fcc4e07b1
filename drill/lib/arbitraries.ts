import fc from 'fast-check';

// Payloads near the real shapes (docs/integrations/alert-webhooks.md) with any field free to be anything
// else: mostly-valid documents reach deeper into the parsers than random JSON does.

const anything = fc.jsonValue({ maxDepth: 3 });
const or = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 19, arbitrary }, { weight: 1, arbitrary: anything });
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', 'x'.repeat(1200)),
);
const time = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') })
      .map((d) => d.toISOString()),
  },
  fc.constantFrom('0001-01-01T00:00:00Z', '2026-05-04T09:12:31.512345678+02:00', 'not a time', ''),
  fc.string(),
);
const labels = fc.dictionary(fc.string({ maxLength: 12 }), or(fc.string()), { maxKeys: 6 });

export const genericPayload = fc.record({
  alerts: or(
    fc.array(
      fc.record(
        {
          title: or(text),
          description: or(text),
          severity: or(fc.constantFrom('critical', 'warning', 'info', 'info', 'CRITICAL')),
          status: or(fc.constantFrom('firing', 'firing', 'resolved', 'ok')),
          external_id: or(fc.string({ maxLength: 40 })),
          source: or(fc.string({ maxLength: 20 })),
          labels: or(labels),
          annotations: or(labels),
          started_at: or(time),
        },
        { requiredKeys: ['title'] },
      ),
      { minLength: 1, maxLength: 3 },
    ),
  ),
});

const prometheusAlert = fc.record(
  {
    status: or(fc.constantFrom('firing', 'resolved')),
    labels: or(labels),
    annotations: or(labels),
    startsAt: or(time),
    endsAt: or(time),
    fingerprint: or(fc.string({ maxLength: 20 })),
    generatorURL: or(fc.webUrl()),
  },
  { requiredKeys: [] },
);

export const alertmanagerPayload = fc.record(
  {
    version: or(fc.constant('4')),
    status: or(fc.constantFrom('firing', 'resolved')),
    receiver: or(fc.string()),
    groupKey: or(fc.string()),
    groupLabels: or(labels),
    commonLabels: or(labels),
    commonAnnotations: or(labels),
    alerts: or(fc.array(prometheusAlert, { maxLength: 5 })),
  },
  { requiredKeys: [] },
);

export const grafanaPayload = fc.record(
  {
    status: or(fc.constantFrom('firing', 'resolved')),
    title: or(text),
    message: or(text),
    state: or(fc.constantFrom('alerting', 'ok')),
    orgId: or(fc.integer()),
    alerts: or(fc.array(prometheusAlert, { maxLength: 5 })),
  },
  { requiredKeys: [] },
);

export const cloudWatchAlarm = fc.oneof(
  fc.record(
    {
      AlarmName: or(text),
      AlarmDescription: or(text),
      NewStateValue: or(fc.constantFrom('ALARM', 'OK', 'INSUFFICIENT_DATA')),
      NewStateReason: or(text),
      StateChangeTime: or(time),
      AlarmArn: or(fc.string({ maxLength: 60 })),
      Region: or(fc.string()),
    },
    { requiredKeys: [] },
  ),
  anything,
);
