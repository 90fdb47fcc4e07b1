import { describe, expect, it } from 'vitest';
import { holdingWindow, maintenanceStatus, windowMatches } from './maintenance';

const database = '0b5c8a4e-8f51-4d5e-9a39-2f3c1e6d7a10';
const network = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';
const keyed = { integration_id: database as string | null, labels: { team: 'db', env: 'prod' } };
const fixedPath = { integration_id: null, labels: { team: 'db', env: 'prod' } };

describe('windowMatches', () => {
  it('takes every alert when the match is empty, a fixed path’s alerts too', () => {
    expect(windowMatches({ match: {} }, keyed)).toBe(true);
    expect(windowMatches({ match: {} }, fixedPath)).toBe(true);
  });

  it('takes alerts of the listed integrations only, never a fixed path’s', () => {
    expect(windowMatches({ match: { integration_ids: [network, database] } }, keyed)).toBe(true);
    expect(windowMatches({ match: { integration_ids: [network] } }, keyed)).toBe(false);
    expect(windowMatches({ match: { integration_ids: [database] } }, fixedPath)).toBe(false);
  });

  it('needs every label, with its value or, for "*", with any value', () => {
    expect(windowMatches({ match: { labels: { team: 'db' } } }, keyed)).toBe(true);
    expect(windowMatches({ match: { labels: { team: 'db', env: 'staging' } } }, keyed)).toBe(false);
    expect(windowMatches({ match: { labels: { env: '*' } } }, keyed)).toBe(true);
    expect(windowMatches({ match: { labels: { region: '*' } } }, keyed)).toBe(false);
  });

  it('needs both the integration and the labels when both are given', () => {
    const match = { integration_ids: [database], labels: { team: 'network' } };
    expect(windowMatches({ match }, keyed)).toBe(false);
    expect(windowMatches({ match: { ...match, labels: { team: 'db' } } }, keyed)).toBe(true);
  });
});

describe('holdingWindow', () => {
  it('answers the first matching window in the caller’s order, or none', () => {
    const windows = [
      { id: 'net', match: { integration_ids: [network] } },
      { id: 'db-team', match: { labels: { team: 'db' } } },
      { id: 'all', match: {} },
    ];
    expect(holdingWindow(windows, keyed)?.id).toBe('db-team');
    expect(holdingWindow(windows.slice(0, 1), keyed)).toBeUndefined();
    expect(holdingWindow([], keyed)).toBeUndefined();
  });
});

describe('maintenanceStatus', () => {
  const window = {
    starts_at: new Date('2026-11-21T10:00:00.000Z'),
    ends_at: new Date('2026-11-21T11:00:00.000Z'),
  };
  const at = (iso: string) => maintenanceStatus(window, new Date(iso));

  it('is active from its start, included, to its end, excluded', () => {
    expect(at('2026-11-21T09:59:59.999Z')).toBe('scheduled');
    expect(at('2026-11-21T10:00:00.000Z')).toBe('active');
    expect(at('2026-11-21T10:59:59.999Z')).toBe('active');
    expect(at('2026-11-21T11:00:00.000Z')).toBe('ended');
  });
});
