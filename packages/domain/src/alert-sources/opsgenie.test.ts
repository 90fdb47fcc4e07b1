import { describe, expect, it } from 'vitest';
import {
  labelsToTags,
  OPSGENIE_SOURCE,
  type OpsgenieCreateParse,
  opsgenieAlertRef,
  parseOpsgenieCreateAlert,
  parseOpsgenieTextUpdate,
  tagsToLabels,
} from './opsgenie';
import { loadFixture as fixture } from './test-fixtures';

const now = new Date('2026-11-24T10:30:00.000Z');
const NEW_ALIAS = '0b9c1f64-5d0e-4c55-9a53-3c1e7f1e2a10';
const parse = (payload: unknown) => parseOpsgenieCreateAlert(payload, now, NEW_ALIAS);
function accepted(result: OpsgenieCreateParse) {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.errors)}`);
  return result;
}

describe('parseOpsgenieCreateAlert', () => {
  it('maps the example request of Opsgenie’s documentation', () => {
    const example = fixture('opsgenie-create-alert');
    const { alias, alert } = accepted(parse(example));
    expect(alias).toBe('Life is too short for no alias');
    expect(alert).toEqual({
      title: 'An example alert message',
      description: 'Every alert needs a description',
      severity: 'critical',
      status: 'firing',
      externalId: 'Life is too short for no alias',
      fingerprint: null,
      source: OPSGENIE_SOURCE,
      labels: { OverwriteQuietHours: '', Critical: '', entity: 'An example entity' },
      annotations: {
        key1: 'value1',
        key2: 'value2',
        priority: 'P1',
        tags: ['OverwriteQuietHours', 'Critical'],
        responders: example.responders,
        visibleTo: example.visibleTo,
        actions: ['Restart', 'AnExampleAction'],
      },
      startedAt: now,
      endedAt: null,
    });
  });

  it.each([
    ['P1', 'critical'],
    ['P2', 'critical'],
    ['P3', 'warning'],
    ['P4', 'info'],
    ['P5', 'info'],
    [undefined, 'warning'],
    ['P9', 'warning'],
  ])('priority %s → %s', (priority, severity) => {
    const { alert } = accepted(parse({ message: 'm', priority }));
    expect(alert.severity).toBe(severity);
    expect(alert.annotations.priority).toBe(priority === 'P9' || !priority ? 'P3' : priority);
  });

  it('gives an alert without alias an alias of its own', () => {
    const { alias, alert } = accepted(parse({ message: 'No alias' }));
    expect(alias).toBe(NEW_ALIAS);
    expect(alert.externalId).toBe(NEW_ALIAS);
  });

  it('reads Alertmanager’s opsgenie_configs request: key:value tags, source as a label', () => {
    const { alias, alert } = accepted(parse(fixture('alertmanager-opsgenie-create')));
    expect(alias).toMatch(/^[0-9a-f]{64}$/);
    expect(alert).toMatchObject({
      title: '[FIRING:1] HighLatency (api-1 critical)',
      severity: 'critical',
      labels: { team: 'payments', prod: '', source: 'http://alertmanager:9093/#/alerts?receiver=firebreak' },
      annotations: { alertname: 'HighLatency', instance: 'api-1', severity: 'critical', priority: 'P2' },
    });
  });

  it('refuses a request without message, naming the field', () => {
    expect(parse({ alias: 'a' })).toEqual({ ok: false, errors: { message: 'Required.' } });
    expect(parse({ message: '  ' })).toEqual({ ok: false, errors: { message: 'Must not be empty.' } });
    expect(parse('text')).toEqual({ ok: false, errors: { body: 'The body must be a JSON object.' } });
  });
});

describe('tags and labels', () => {
  it('round-trip: key:value ↔ label key=value, a bare tag ↔ a label with the empty value', () => {
    const tags = ['team:payments', 'prod', 'url:http://x:8080/a', ':odd'];
    const labels = tagsToLabels(tags);
    expect(labels).toEqual({ team: 'payments', prod: '', url: 'http://x:8080/a', ':odd': '' });
    expect(labelsToTags(labels)).toEqual(tags);
    expect(tagsToLabels(labelsToTags({ a: 'b', c: '' }))).toEqual({ a: 'b', c: '' });
  });

  it('skips blank tags; a later tag wins over an earlier one of the same name', () => {
    expect(tagsToLabels(['', ' ', 'env:dev', 'env:prod'])).toEqual({ env: 'prod' });
  });
});

describe('opsgenieAlertRef', () => {
  it('id (the default) is the alert’s UUID; alias its alias; tiny is refused with a reason', () => {
    const id = '8743A1B2-11DA-480E-8493-744660987BEF';
    expect(opsgenieAlertRef(id, undefined)).toEqual({ ok: true, ref: { alertId: id.toLowerCase() } });
    expect(opsgenieAlertRef('not-a-uuid', 'id')).toEqual({ ok: true, ref: null });
    expect(opsgenieAlertRef('my alias', 'alias')).toEqual({ ok: true, ref: { externalId: 'my alias' } });
    expect(opsgenieAlertRef('42', 'tiny')).toMatchObject({
      ok: false,
      message: expect.stringContaining('tiny'),
    });
    expect(opsgenieAlertRef('x', 'name')).toMatchObject({
      ok: false,
      message: expect.stringContaining('id, alias'),
    });
  });
});

describe('parseOpsgenieTextUpdate', () => {
  it('a new message is the title; a new description, or none when empty', () => {
    expect(parseOpsgenieTextUpdate('message', { message: 'New title' })).toEqual({
      ok: true,
      change: { title: 'New title' },
    });
    expect(parseOpsgenieTextUpdate('description', { description: 'More' })).toEqual({
      ok: true,
      change: { description: 'More' },
    });
    expect(parseOpsgenieTextUpdate('description', { description: ' ' })).toEqual({
      ok: true,
      change: { description: null },
    });
    expect(parseOpsgenieTextUpdate('message', {})).toEqual({ ok: false, errors: { message: 'Required.' } });
  });

  it('a body without description clears it: Alertmanager leaves an empty description out', () => {
    expect(parseOpsgenieTextUpdate('description', {})).toEqual({ ok: true, change: { description: null } });
    expect(parseOpsgenieTextUpdate('description', { description: 7 })).toEqual({
      ok: false,
      errors: { description: 'Must be a string.' },
    });
  });
});
