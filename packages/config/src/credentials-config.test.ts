import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

// Holds the secret files these tests write; removed when they are done.
const dir = mkdtempSync(join(tmpdir(), 'firebreak-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('session and metrics settings', () => {
  it('default to a 12-hour idle timeout and open metrics', () => {
    const config = loadConfig({});
    expect(config.sessionIdleTimeoutMinutes).toBe(720);
    expect(config.metricsToken).toBeUndefined();
  });

  it('take METRICS_TOKEN from the environment or from METRICS_TOKEN_FILE', () => {
    expect(loadConfig({ METRICS_TOKEN: 'abc', SESSION_IDLE_TIMEOUT_MINUTES: '30' })).toMatchObject({
      metricsToken: 'abc',
      sessionIdleTimeoutMinutes: 30,
    });
    const file = join(dir, 'metrics-token');
    writeFileSync(file, 'from-a-file\n');
    expect(loadConfig({ METRICS_TOKEN_FILE: file }).metricsToken).toBe('from-a-file');
  });

  it('refuse an idle timeout that is not a positive number of minutes', () => {
    expect(() => loadConfig({ SESSION_IDLE_TIMEOUT_MINUTES: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ SESSION_IDLE_TIMEOUT_MINUTES: 'soon' })).toThrow(ConfigError);
  });
});
