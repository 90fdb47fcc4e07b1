import { describe, expect, it } from 'vitest';
import { Alert, GenericWebhookBody, genericWebhookJsonSchema, SnsEnvelope, SourceTimestamp } from './alert';
import { toValidationIssues } from './validation';

function problems(input: unknown) {
  const result = GenericWebhookBody.safeParse(input);
  return result.success ? [] : toValidationIssues(result.error);
}

const alerts = (count: number) => Array.from({ length: count }, (_, i) => ({ title: `Alert ${i}` }));

describe('GenericWebhookBody', () => {
  it('applies the documented defaults and trims the title', () => {
    const body = GenericWebhookBody.parse({ alerts: [{ title: '  Disk full  ' }] });
    expect(body.alerts[0]).toEqual({ title: 'Disk full', severity: 'warning', status: 'firing' });
  });

  it('keeps every intake field and drops unknown ones', () => {
    const alert = {
      title: 'p99 latency > 2s',
      description: 'billing-api is slow',
      severity: 'critical',
      status: 'resolved',
      external_id: 'billing-api/latency',
      source: 'billing-api.prod',
      labels: { team: 'payments', env: 'prod' },
      annotations: { runbook_url: 'https://runbooks.example.com/latency', p99_ms: 2380, links: [{ a: 1 }] },
      started_at: '2026-05-04T12:00:00.123+02:00',
    };
    const body = GenericWebhookBody.parse({
      alerts: [{ ...alert, event_action: 'trigger' }],
      routing_key: 'x',
    });
    expect(body).toEqual({ alerts: [alert] });
  });

  it('reads null as not given', () => {
    const body = GenericWebhookBody.parse({
      alerts: [{ title: 'x', description: null, external_id: null, labels: null, started_at: null }],
    });
    expect(body.alerts[0]?.external_id).toBeNull();
    expect(body.alerts[0]?.severity).toBe('warning');
  });

  it('accepts 1 and 1000 alerts, rejects 0 and 1001', () => {
    expect(problems({ alerts: alerts(1) })).toEqual([]);
    expect(problems({ alerts: alerts(1000) })).toEqual([]);
    expect(problems({ alerts: [] })).toEqual([
      { path: 'alerts', message: 'At least one alert is required.' },
    ]);
    expect(problems({ alerts: alerts(1001) })).toEqual([
      { path: 'alerts', message: 'At most 1000 alerts per request.' },
    ]);
  });

  it('names the failing alert and field', () => {
    const batch: unknown[] = alerts(5);
    batch[3] = { description: 'no title' };
    batch[4] = 'not an object';
    expect(problems({ alerts: batch })).toEqual([
      { path: 'alerts[3].title', message: 'Required.' },
      { path: 'alerts[4]', message: 'Each alert must be an object.' },
    ]);
  });

  it('rejects bad field values with clear messages', () => {
    const found = problems({
      alerts: [
        {
          title: '   ',
          severity: 'fatal',
          status: 'open',
          external_id: '',
          labels: { team: 7, '': 'x' },
          started_at: '2026-05-04T12:00:00',
        },
        { title: 'x'.repeat(1001), labels: Object.fromEntries(alerts(257).map((a) => [a.title, 'v'])) },
      ],
    });
    expect(found).toEqual([
      { path: 'alerts[0].title', message: 'Must not be empty.' },
      { path: 'alerts[0].severity', message: 'Must be one of: critical, warning, info.' },
      { path: 'alerts[0].status', message: 'Must be one of: firing, resolved.' },
      { path: 'alerts[0].external_id', message: 'Must not be empty.' },
      { path: 'alerts[0].labels.team', message: 'Label values must be strings.' },
      // The empty label name is the last path segment, hence the trailing dot.
      { path: 'alerts[0].labels.', message: 'Label names must be 1 to 256 characters.' },
      {
        path: 'alerts[0].started_at',
        message: 'Must be an ISO 8601 timestamp with a time zone, e.g. 2026-05-04T12:00:00Z.',
      },
      { path: 'alerts[1].labels', message: 'At most 256 labels.' },
    ]);
  });

  it('rejects a body that is not an object with an alerts array', () => {
    const message = 'The body must be a JSON object with an `alerts` array.';
    expect(problems([])).toEqual([{ path: '', message }]);
    expect(problems(null)).toEqual([{ path: '', message }]);
    expect(problems({ alerts: {} })).toEqual([{ path: 'alerts', message: 'Must be an array of alerts.' }]);
  });
});

describe('genericWebhookJsonSchema', () => {
  const schema = genericWebhookJsonSchema() as {
    $schema: string;
    required: string[];
    properties: { alerts: { minItems: number; maxItems: number; items: Record<string, unknown> } };
  };
  const item = schema.properties.alerts.items as {
    required: string[];
    properties: Record<string, { default?: unknown }>;
    additionalProperties?: unknown;
  };

  it('is draft 2020-12 with alerts and title required', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.required).toEqual(['alerts']);
    expect(schema.properties.alerts).toMatchObject({ minItems: 1, maxItems: 1000 });
    expect(item.required).toEqual(['title']);
  });

  it('shows defaulted fields as optional with their default, and allows unknown fields', () => {
    expect(item.properties.severity?.default).toBe('warning');
    expect(item.properties.status?.default).toBe('firing');
    expect(Object.keys(item.properties)).toEqual([
      'title',
      'description',
      'severity',
      'status',
      'external_id',
      'source',
      'labels',
      'annotations',
      'started_at',
    ]);
    expect(item.additionalProperties).not.toBe(false);
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});

describe('SourceTimestamp', () => {
  it('reads Go RFC 3339 with nanoseconds and offsets, CloudWatch +0000 and the Go zero time', () => {
    expect(SourceTimestamp.parse('2021-10-12T09:51:03.157076123+02:00').toISOString()).toBe(
      '2021-10-12T07:51:03.157Z',
    );
    expect(SourceTimestamp.parse('2022-09-25T18:50:37.811+0000').toISOString()).toBe(
      '2022-09-25T18:50:37.811Z',
    );
    expect(SourceTimestamp.parse('0001-01-01T00:00:00Z').getUTCFullYear()).toBe(1);
  });

  it('rejects timestamps without a zone and impossible dates', () => {
    expect(SourceTimestamp.safeParse('2026-05-04T10:00:00').success).toBe(false);
    expect(SourceTimestamp.safeParse('2026-13-04T10:00:00Z').success).toBe(false);
    expect(SourceTimestamp.safeParse(1714816800).success).toBe(false);
  });
});

describe('SnsEnvelope', () => {
  it('names an unknown Type', () => {
    const result = SnsEnvelope.safeParse({ Type: 'Notice' });
    expect(result.success ? [] : toValidationIssues(result.error)).toEqual([
      { path: 'Type', message: 'Must be Notification, SubscriptionConfirmation or UnsubscribeConfirmation.' },
    ]);
  });
});

describe('Alert', () => {
  it('describes the alert object the API shows', () => {
    const alert = {
      id: '0b6f3c1e-6a0d-4b8e-9f41-2a7c5d9e8f10',
      title: 'Disk full',
      description: null,
      severity: 'warning',
      status: 'firing',
      external_id: 'disk/db-1',
      source: 'generic',
      labels: { team: 'db' },
      annotations: { p99_ms: 2380 },
      started_at: '2026-05-04T12:00:00.000Z',
      received_at: '2026-05-04T12:00:01.000Z',
      fingerprint: null,
      ended_at: null,
      incident_id: null,
      integration_id: null,
      suppressed_by: null,
    };
    expect(Alert.parse(alert)).toEqual(alert);
    expect(Alert.parse({ ...alert, suppressed_by: 'maintenance' }).suppressed_by).toBe('maintenance');
    expect(Alert.safeParse({ ...alert, suppressed_by: 'because' }).success).toBe(false);
    expect(Alert.safeParse({ ...alert, severity: 'high' }).success).toBe(false);
  });
});
