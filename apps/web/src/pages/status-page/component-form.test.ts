import { describe, expect, it } from 'vitest';
import { componentInputOf, emptyComponentForm, formOfComponent, parseMatch } from './component-form';

describe('a component form', () => {
  it('reads one name=value label per line, values may hold "="', () => {
    expect(parseMatch(' service = checkout \n\nenv=prod\nquery=a=b')).toEqual({
      labels: { service: 'checkout', env: 'prod', query: 'a=b' },
    });
  });

  it('refuses a line without a name, a name given twice and an empty match', () => {
    expect(parseMatch('service')).toEqual({ error: '“service” is not a label: write name=value.' });
    expect(parseMatch('=prod')).toEqual({ error: '“=prod” is not a label: write name=value.' });
    expect(parseMatch('a=1\na=2')).toEqual({ error: 'The label “a” is given twice.' });
    expect(parseMatch('  \n')).toEqual({ error: 'Give at least one label, as name=value.' });
  });

  it('takes labels named like object machinery as labels', () => {
    const parsed = parseMatch('constructor=api\n__proto__=x\ntoString=y');
    expect('labels' in parsed).toBe(true);
    const labels = (parsed as { labels: Record<string, string> }).labels;
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    // As JSON, as the API receives it: every label an own property, in order.
    expect(JSON.stringify(labels)).toBe('{"constructor":"api","__proto__":"x","toString":"y"}');
    expect(parseMatch('__proto__=a\n__proto__=b')).toEqual({
      error: 'The label “__proto__” is given twice.',
    });
  });

  it('sends no group as null, an automatic status as null, and no position when none is given', () => {
    const form = { ...emptyComponentForm(), name: ' API ', match: 'service=api' };
    expect(componentInputOf(form)).toEqual({
      input: { name: 'API', group: null, match: { service: 'api' }, status: null },
    });
    expect(componentInputOf({ ...form, position: '1.5' })).toEqual({
      error: 'The position is a whole number.',
    });
    expect(componentInputOf({ ...form, position: '-2', status: 'degraded', group: 'Edge' })).toMatchObject({
      input: { position: -2, status: 'degraded', group: 'Edge' },
    });
  });

  it('shows a stored component as it would be typed', () => {
    const form = formOfComponent({
      id: 'x',
      name: 'API',
      group: null,
      match: { service: 'api', env: 'prod' },
      position: 3,
      status: null,
      current_status: 'operational',
      created_at: '',
      updated_at: '',
    });
    expect(form).toEqual({
      name: 'API',
      group: '',
      match: 'service=api\nenv=prod',
      position: '3',
      status: '',
    });
  });
});
