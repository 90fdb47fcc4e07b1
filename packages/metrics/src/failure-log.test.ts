import { captureLogs } from '@firebreak/testing';
import { describe, expect, it } from 'vitest';
import { FailureLog } from './failure-log';
import { createMetrics } from './index';

function setUp() {
  const logs = captureLogs();
  const metrics = createMetrics({ defaultMetrics: false });
  let clock = 0;
  const failures = new FailureLog({ logger: logs.logger, metrics, now: () => clock });
  const metricsText = () => metrics.registry.metrics();
  return { logs, failures, metricsText, tick: (ms: number) => (clock += ms) };
}

const refused = { reason: 'connection refused', line: 'database: connection refused (database down): boom' };
const wrongPassword = {
  reason: 'password authentication failed',
  line: 'database: password authentication failed (wrong DATABASE_URL credentials): no',
};

describe('FailureLog', () => {
  it('logs an outage once however often it is seen, counts every occurrence, and logs the recovery', async () => {
    const { logs, failures, metricsText, tick } = setUp();
    for (let i = 0; i < 50; i++) failures.failed('database', refused);
    tick(12_000);
    failures.recovered('database');
    failures.recovered('database');

    expect(logs.messages()).toEqual([refused.line, 'database: connection restored']);
    expect(logs.lines[0]).toMatchObject({
      level: 'error',
      component: 'database',
      reason: 'connection refused',
    });
    expect(logs.lines[1]).toMatchObject({ level: 'info', down_seconds: 12 });
    const text = await metricsText();
    expect(text).toContain('firebreak_failures_total{component="database",reason="connection refused"} 50');
    expect(text).toContain('firebreak_component_up{component="database"} 1');
  });

  it('logs a change of reason while down', () => {
    const { logs, failures } = setUp();
    failures.failed('database', refused);
    failures.failed('database', wrongPassword);
    failures.failed('database', wrongPassword);
    expect(logs.messages()).toEqual([refused.line, wrongPassword.line]);
    expect(failures.failing('database')).toBe('password authentication failed');
  });

  it('waits for every failing client of a component before it logs the recovery', () => {
    const { logs, failures } = setUp();
    failures.failed(
      'redis',
      { reason: 'connection refused', line: 'redis: connection refused' },
      'command-1',
    );
    failures.failed(
      'redis',
      { reason: 'connection refused', line: 'redis: connection refused' },
      'blocking-2',
    );
    failures.recovered('redis', 'command-1');
    expect(failures.failing('redis')).toBe('connection refused');
    failures.recovered('redis', 'blocking-2');
    expect(logs.messages()).toEqual(['redis: connection refused', 'redis: connection restored']);
  });

  it('forgets a failure nothing reports the end of after a quiet period, then logs the next one', () => {
    const { logs, failures, tick } = setUp();
    const bad = { reason: 'invalid_signature', line: 'invalid_signature' };
    const forget = { forgetAfterMs: 60_000 };
    failures.failed('signature:generic', bad, 'default', forget);
    tick(59_000);
    failures.failed('signature:generic', bad, 'default', forget); // still the same burst
    tick(61_000);
    failures.failed('signature:generic', bad, 'default', forget);
    expect(logs.messages()).toEqual(['invalid_signature', 'invalid_signature']);
  });

  it('probes a failed component until it answers, then logs the recovery', async () => {
    const logs = captureLogs();
    let healthy = false;
    const failures = new FailureLog({
      logger: logs.logger,
      metrics: createMetrics({ defaultMetrics: false }),
      probes: {
        database: async () => {
          if (!healthy) throw new Error('still down');
        },
      },
      probeIntervalMs: 10,
    });
    failures.failed('database', refused);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(failures.failing('database')).toBe('connection refused');
    healthy = true;
    await expect.poll(() => failures.failing('database')).toBeUndefined();
    expect(logs.messages()).toEqual([refused.line, 'database: connection restored']);
    failures.close();
  });
});
