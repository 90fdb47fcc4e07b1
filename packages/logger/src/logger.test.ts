import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './index';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(JSON.parse(String(chunk)));
      callback();
    },
  });
  return { logger: createLogger({ name: 'test', destination }), lines };
}

describe('createLogger', () => {
  it('writes JSON lines with the level name, time and exact message', () => {
    const { logger, lines } = capture();
    logger.info({ incident_id: 'abc' }, 'incident created');
    expect(lines[0]).toMatchObject({
      level: 'info',
      app: 'test',
      incident_id: 'abc',
      msg: 'incident created',
    });
    expect(typeof lines[0]?.time).toBe('string');
  });

  it('logs an error under `err` as type, message, code and stack, and nothing else of it', () => {
    const { logger, lines } = capture();
    const error = Object.assign(new TypeError('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      request: { headers: { authorization: 'Bearer xoxb-secret' } },
    });
    logger.error({ err: error }, 'request failed');
    expect(lines[0]?.err).toEqual({
      type: 'TypeError',
      message: 'connect ECONNREFUSED 127.0.0.1:5432',
      code: 'ECONNREFUSED',
      stack: expect.stringContaining('TypeError: connect ECONNREFUSED'),
    });
    expect(JSON.stringify(lines[0])).not.toContain('xoxb-secret');
  });

  it('redacts secrets wherever they appear', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        password: 'hunter2',
        user: { password_hash: 'scrypt$...', token: 'fbs_abc' },
        headers: { authorization: 'Bearer fbk_secret', cookie: 'firebreak_session=fbs_x' },
        settings: { signing_secret: 's3cr3t' },
      },
      'login',
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of ['hunter2', 'scrypt$', 'fbs_abc', 'fbk_secret', 'fbs_x', 's3cr3t']) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({ password: '[redacted]', headers: { authorization: '[redacted]' } });
  });
});

describe('redactUrl', () => {
  it('hides the password of a connection URL', () => {
    expect(redactUrl('postgres://firebreak:hunter2@db:5432/firebreak')).toBe(
      'postgres://firebreak:***@db:5432/firebreak',
    );
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
