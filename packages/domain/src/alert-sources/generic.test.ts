import { AppError, alertLimits } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { parseGenericWebhook } from './generic';
import { alertsOrThrow } from './parse-result';

const now = new Date('2026-05-04T12:00:05.000Z');

describe('parseGenericWebhook', () => {
  it('fills the documented defaults: warning, firing, started now, no dedup key', () => {
    const result = parseGenericWebhook({ alerts: [{ title: 'Disk on db-1 is 92% full' }] }, now);
    expect(result).toEqual({
      ok: true,
      alerts: [
        {
          title: 'Disk on db-1 is 92% full',
          description: null,
          severity: 'warning',
          status: 'firing',
          externalId: null,
          fingerprint: null,
          source: null,
          labels: {},
          annotations: {},
          startedAt: now,
          endedAt: null,
        },
      ],
    });
  });

  it('clips over-long texts with a visible … instead of refusing the alert', () => {
    const longId = (end: string) => `${'i'.repeat(600)}${end}`;
    const [first, second] = alertsOrThrow(
      parseGenericWebhook(
        {
          alerts: [
            {
              title: 't'.repeat(1500),
              description: 'd'.repeat(25_000),
              source: 's'.repeat(300),
              external_id: longId('a'),
              labels: { long: 'v'.repeat(5000), short: 'ok' },
            },
            { title: 'same start, other id', external_id: longId('b') },
          ],
        },
        now,
      ),
    );
    expect(first!.title).toHaveLength(alertLimits.titleLength);
    expect(first!.title.endsWith('…')).toBe(true);
    expect(first!.description).toHaveLength(alertLimits.descriptionLength);
    expect(first!.description!.endsWith('…')).toBe(true);
    expect(first!.source).toHaveLength(alertLimits.sourceLength);
    expect(first!.labels.long).toHaveLength(alertLimits.labelValueLength);
    expect(first!.labels.short).toBe('ok');
    // Ids keep a prefix, the marker and a hash of the whole: two long ids stay two alerts.
    expect(first!.externalId!.length).toBeLessThanOrEqual(alertLimits.externalIdLength);
    expect(first!.externalId).toContain('…');
    expect(second!.externalId).not.toBe(first!.externalId);
    expect(
      alertsOrThrow(parseGenericWebhook({ alerts: [{ title: 'x', external_id: longId('a') }] }, now))[0]!
        .externalId,
    ).toBe(first!.externalId);
  });

  it('still refuses what cannot be an alert: no title, wrong types', () => {
    expect(parseGenericWebhook({ alerts: [{ title: '  ' }] }, now).ok).toBe(false);
    expect(parseGenericWebhook({ alerts: [{ title: 'x', description: 7 }] }, now).ok).toBe(false);
    expect(parseGenericWebhook({ alerts: [{ title: 'x', labels: { a: 1 } }] }, now).ok).toBe(false);
  });

  it('maps every intake field and ignores unknown ones', () => {
    const [alert] = alertsOrThrow(
      parseGenericWebhook(
        {
          alerts: [
            {
              title: 'p99 latency > 2s on billing-api',
              description: 'Checkout is slow',
              severity: 'critical',
              external_id: 'billing-api/latency',
              source: 'billing-api.prod',
              labels: { team: 'payments' },
              annotations: { runbook_url: 'https://runbooks.example.com/latency', p99_ms: 2380 },
              started_at: '2026-05-04T13:58:00+02:00',
              dedup_key: 'ignored',
            },
          ],
        },
        now,
      ),
    );
    expect(alert).toMatchObject({
      title: 'p99 latency > 2s on billing-api',
      description: 'Checkout is slow',
      severity: 'critical',
      status: 'firing',
      externalId: 'billing-api/latency',
      source: 'billing-api.prod',
      labels: { team: 'payments' },
      annotations: { runbook_url: 'https://runbooks.example.com/latency', p99_ms: 2380 },
      startedAt: new Date('2026-05-04T11:58:00Z'),
      endedAt: null,
    });
    expect(alert).not.toHaveProperty('dedup_key');
  });

  it('ends a resolved alert at the time of receipt', () => {
    const [alert] = alertsOrThrow(
      parseGenericWebhook({ alerts: [{ title: 'x', external_id: 'a-1', status: 'resolved' }] }, now),
    );
    expect(alert).toMatchObject({ status: 'resolved', externalId: 'a-1', endedAt: now });
  });

  it('gives each alert its own Date', () => {
    const alerts = alertsOrThrow(parseGenericWebhook({ alerts: [{ title: 'a' }, { title: 'b' }] }, now));
    expect(alerts[0]?.startedAt).not.toBe(alerts[1]?.startedAt);
    expect(alerts[0]?.startedAt).not.toBe(now);
  });

  it('rejects the whole request with a problem per bad field', () => {
    const alerts: unknown[] = [{ title: 'a' }, { title: 'b' }, { title: 'c' }, { severity: 'critical' }];
    expect(parseGenericWebhook({ alerts }, now)).toEqual({
      ok: false,
      problems: [{ path: 'alerts[3].title', message: 'Required.' }],
    });
    expect(parseGenericWebhook({ alerts: [] }, now)).toMatchObject({
      ok: false,
      problems: [{ path: 'alerts' }],
    });
    expect(parseGenericWebhook('{"alerts": []}', now)).toMatchObject({ ok: false, problems: [{ path: '' }] });
  });

  it('turns a rejection into validation_failed with the problems as details', () => {
    const result = parseGenericWebhook({ alerts: [{ title: '' }] }, now);
    let error: unknown;
    try {
      alertsOrThrow(result);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'validation_failed',
      status: 400,
      details: [{ path: 'alerts[0].title', message: 'Must not be empty.' }],
    });
  });
});
