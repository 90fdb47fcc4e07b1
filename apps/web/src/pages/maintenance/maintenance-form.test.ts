import { describe, expect, it } from 'vitest';
import {
  describeWindowMatch,
  emptyMaintenanceForm,
  fromLocalInput,
  maintenanceInputOf,
  toLocalInput,
} from './maintenance-form';

const DB = '00000000-0000-4000-8000-00000000000d';

describe('the maintenance window form', () => {
  it('reads a datetime-local value in the browser time zone and back', () => {
    const local = new Date(2026, 4, 4, 9, 5);
    expect(toLocalInput(local)).toBe('2026-05-04T09:05');
    expect(fromLocalInput('2026-05-04T09:05')).toBe(local.toISOString());
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('tomorrow')).toBeNull();
  });

  it('starts now and ends an hour later by default', () => {
    const now = new Date(2026, 10, 24, 23, 30);
    const form = emptyMaintenanceForm(now);
    expect(form.startsAt).toBe('2026-11-24T23:30');
    expect(form.endsAt).toBe('2026-11-25T00:30');
  });

  it('sends only the criteria given; none matches every alert', () => {
    const form = { ...emptyMaintenanceForm(new Date(2026, 0, 1, 12)), name: ' DB upgrade ' };
    expect(maintenanceInputOf(form)).toEqual({
      input: {
        name: 'DB upgrade',
        starts_at: new Date(2026, 0, 1, 12).toISOString(),
        ends_at: new Date(2026, 0, 1, 13).toISOString(),
        match: {},
      },
    });
    const narrowed = maintenanceInputOf({ ...form, integrationIds: [DB], labels: 'env=prod\nhost' });
    expect(narrowed).toMatchObject({
      input: { match: { integration_ids: [DB], labels: { env: 'prod', host: '*' } } },
    });
  });

  it('refuses an end that is not after the start, before asking the API', () => {
    const form = emptyMaintenanceForm(new Date(2026, 0, 1, 12));
    expect(maintenanceInputOf({ ...form, endsAt: form.startsAt })).toEqual({
      error: 'The end must be after the start.',
    });
    expect(maintenanceInputOf({ ...form, endsAt: '' })).toEqual({ error: 'Give a start and an end.' });
  });

  it('describes what a window holds back', () => {
    expect(describeWindowMatch({}, String)).toBe('every alert');
    expect(
      describeWindowMatch({ integration_ids: [DB], labels: { env: 'prod', host: '*' } }, () => 'Prod DB'),
    ).toBe('Prod DB, env=prod, has host');
  });
});
