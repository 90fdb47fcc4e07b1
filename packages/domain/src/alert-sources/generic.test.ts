import { AppError } from '@firebreak/schema';
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
