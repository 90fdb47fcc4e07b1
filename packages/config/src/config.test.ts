import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: undefined,
      databaseUrl: undefined,
      dbMaxOpenConns: 25,
      redis: { url: undefined, sentinels: undefined, sentinelMaster: 'mymaster' },
      chat: { apiUrl: 'https://slack.com/api/', botToken: undefined },
      ai: { provider: 'none' },
      rateLimitPerMinute: 600,
      dataDir: './.data',
      logLevel: 'info',
      trustProxy: false,
      bootstrapAdmin: undefined,
    });
    expect(config.snsCertUrlPattern.test('https://sns.eu-west-1.amazonaws.com/cert.pem')).toBe(true);
    expect(config.snsCertUrlPattern.test('https://sns.evil.example.com/cert.pem')).toBe(false);
  });

  it('parses typed values and Sentinel addresses', () => {
    const config = loadConfig({
      PORT: '9000',
      DB_MAX_OPEN_CONNS: '10',
      KV_SENTINEL_ADDRS: '10.0.0.1:26379, sentinel-2:26380',
      TRUST_PROXY: 'true',
      AI_PROVIDER: 'openai',
      BOOTSTRAP_ADMIN_EMAIL: 'ops@example.com',
      BOOTSTRAP_ADMIN_PASSWORD: 'correct horse battery',
    });
    expect(config.port).toBe(9000);
    expect(config.dbMaxOpenConns).toBe(10);
    expect(config.redis.sentinels).toEqual([
      { host: '10.0.0.1', port: 26379 },
      { host: 'sentinel-2', port: 26380 },
    ]);
    expect(config.trustProxy).toBe(true);
    expect(config.bootstrapAdmin).toEqual({ email: 'ops@example.com', password: 'correct horse battery' });
  });

  it('reports every problem at once, one line each, naming the variable', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DB_MAX_OPEN_CONNS: '0',
      REDIS_URL: 'http://localhost:6379',
      AI_PROVIDER: 'gemini',
      KV_SENTINEL_ADDRS: 'host-without-port',
      LOG_LEVEL: 'loud',
      BOOTSTRAP_ADMIN_EMAIL: 'ops@example.com',
    });
    const names = problems.map((line) => line.split(':')[0]);
    expect(names).toEqual(
      expect.arrayContaining([
        'PORT',
        'DB_MAX_OPEN_CONNS',
        'REDIS_URL',
        'AI_PROVIDER',
        'KV_SENTINEL_ADDRS',
        'LOG_LEVEL',
        'BOOTSTRAP_ADMIN_EMAIL',
      ]),
    );
    expect(problems.join('\n')).toContain('"host-without-port" is not host:port');
  });

  it('never echoes a secret value in a problem', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://root:hunter2@db/firebreak' });
    expect(problems).toEqual(['DATABASE_URL: must start with postgres:// or postgresql://']);
  });
});

describe('*_FILE secrets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'firebreak-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the value from the file, without the trailing newline', () => {
    const file = join(dir, 'bot-token');
    writeFileSync(file, 'xoxb-from-a-file\n');
    const config = loadConfig({ CHAT_BOT_TOKEN_FILE: file });
    expect(config.chat.botToken).toBe('xoxb-from-a-file');
  });

  it('works for the database URL too', () => {
    const file = join(dir, 'database-url');
    writeFileSync(file, 'postgres://firebreak:secret@db:5432/firebreak');
    expect(loadConfig({ DATABASE_URL_FILE: file }).databaseUrl).toBe(
      'postgres://firebreak:secret@db:5432/firebreak',
    );
  });

  it('refuses both the variable and its file, and an unreadable file', () => {
    const file = join(dir, 'secret');
    writeFileSync(file, 'x');
    const problems = problemsOf({
      CHAT_SIGNING_SECRET: 'inline',
      CHAT_SIGNING_SECRET_FILE: file,
      AI_API_KEY_FILE: join(dir, 'missing'),
    });
    expect(problems).toEqual([
      'CHAT_SIGNING_SECRET and CHAT_SIGNING_SECRET_FILE are both set; set only one of them',
      `AI_API_KEY_FILE: cannot read ${join(dir, 'missing')} (ENOENT)`,
    ]);
  });
});
