import type { AlertInput } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { planAlertUpdate, type StoredAlert } from './alert-update';

const at = new Date('2026-03-01T10:00:00Z');
const stored: StoredAlert = {
  status: 'firing',
  title: 'Checkout latency',
  description: null,
  severity: 'warning',
  source: 'prometheus',
  labels: { team: 'payments' },
  annotations: { runbook: { url: 'https://runbooks.example.test/latency' } },
  ended_at: null,
};
const incoming: AlertInput = {
  title: 'Checkout latency',
  description: null,
  severity: 'warning',
  status: 'firing',
  externalId: 'latency-1',
  fingerprint: null,
  source: 'prometheus',
  labels: { team: 'payments' },
  annotations: { runbook: { url: 'https://runbooks.example.test/latency' } },
  startedAt: new Date('2026-03-01T09:00:00Z'),
  endedAt: null,
};

describe('planAlertUpdate', () => {
  it('sees a re-sent alert as unchanged, down to nested annotations', () => {
    expect(planAlertUpdate(stored, incoming, at)).toEqual({
      kind: 'updated',
      unchanged: true,
      endedAt: null,
      incidentFlag: 'keep',
    });
    const edited = { ...incoming, annotations: { runbook: { url: 'https://runbooks.example.test/v2' } } };
    expect(planAlertUpdate(stored, edited, at)).toMatchObject({ kind: 'updated', unchanged: false });
  });

  it('resolves a firing alert at the time the sender gives, else now; the incident is re-counted', () => {
    const ended = new Date('2026-03-01T09:58:00Z');
    expect(planAlertUpdate(stored, { ...incoming, status: 'resolved', endedAt: ended }, at)).toEqual({
      kind: 'resolved',
      unchanged: false,
      endedAt: ended,
      incidentFlag: 'recount',
    });
    expect(planAlertUpdate(stored, { ...incoming, status: 'resolved' }, at).endedAt).toEqual(at);
  });

  it('keeps the first end time when a resolved alert is resolved again', () => {
    const first = new Date('2026-03-01T09:50:00Z');
    const resolved = { ...stored, status: 'resolved' as const, ended_at: first };
    expect(planAlertUpdate(resolved, { ...incoming, status: 'resolved' }, at)).toMatchObject({
      kind: 'updated',
      endedAt: first,
      incidentFlag: 'keep',
    });
  });

  it('re-fires a resolved alert: no end time, and the incident it rejoins is no longer all resolved', () => {
    const resolved = { ...stored, status: 'resolved' as const, ended_at: at };
    expect(planAlertUpdate(resolved, incoming, at)).toEqual({
      kind: 'refired',
      unchanged: false,
      endedAt: null,
      incidentFlag: 'clear',
    });
  });
});
