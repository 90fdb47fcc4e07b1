import { AppError } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJson } from './json';

function refusal(raw: string): { code: string; details: unknown } {
  try {
    parseJson(raw);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error('parsed without complaint');
}

describe('parseJson', () => {
  it('parses ordinary JSON, brackets inside strings and escaped quotes included', () => {
    expect(parseJson('{"title":"a [ { \\" } ]","labels":{"k":"v"}}')).toEqual({
      title: 'a [ { " } ]',
      labels: { k: 'v' },
    });
  });

  it('accepts nesting up to the limit and refuses one level more as validation_failed', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(() => parseJson(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(refusal(nested(MAX_JSON_DEPTH + 1))).toEqual({
      code: 'validation_failed',
      details: [{ path: '', message: `Nested deeper than ${MAX_JSON_DEPTH} levels.` }],
    });
    expect(refusal(nested(100_000)).code).toBe('validation_failed');
  });

  it('refuses a NUL character in a value or a key, naming where', () => {
    expect(refusal('{"alerts":[{"title":"nul \\u0000 inside"}]}')).toEqual({
      code: 'validation_failed',
      details: [{ path: 'alerts[0].title', message: 'Text may not contain the NUL character (\\u0000).' }],
    });
    expect(refusal('{"labels":{"a\\u0000b":"v"}}').details).toMatchObject([{ path: 'labels.a\u0000b' }]);
  });

  it('keeps a backslash followed by u0000 as text (that is no NUL)', () => {
    expect(parseJson('{"title":"\\\\u0000"}')).toEqual({ title: '\\u0000' });
  });

  it('answers invalid_json for bad syntax', () => {
    expect(refusal('{"title": ').code).toBe('invalid_json');
  });
});
