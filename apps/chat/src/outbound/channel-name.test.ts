import { channelNameError } from '@firebreak/testing';
import { describe, expect, it } from 'vitest';
import {
  CHANNEL_NAME_MAX_LENGTH,
  incidentChannelName,
  resolvedChannelName,
  resolvedLiteral,
  slugify,
} from './channel-name';

describe('incident channel names', () => {
  it('slugs the title: lowercase [a-z0-9-], accents dropped, dashes collapsed and trimmed', () => {
    expect(slugify('  Checkout: Payments API 500s!! ')).toBe('checkout-payments-api-500s');
    expect(slugify('Café — Zürich DB_primary')).toBe('cafe-zurich-db-primary');
    expect(slugify('---')).toBe('');
    expect(incidentChannelName(42, 'Database primary down')).toBe('inc-42-database-primary-down');
  });

  it('stays within 80 characters by shortening the slug, never the number', () => {
    const name = incidentChannelName(123456, `${'a'.repeat(60)} ${'b'.repeat(60)}`);
    expect(name.length).toBeLessThanOrEqual(CHANNEL_NAME_MAX_LENGTH);
    expect(name.startsWith('inc-123456-aaaa')).toBe(true);
    expect(name.endsWith('-')).toBe(false);
    const suffixed = incidentChannelName(123456, 'x'.repeat(100), 12);
    expect(suffixed.length).toBe(CHANNEL_NAME_MAX_LENGTH);
    expect(suffixed.endsWith('x-12')).toBe(true);
  });

  it('numbers taken names -2, -3…, and copes with titles that give no slug', () => {
    expect(incidentChannelName(7, 'Disk full', 2)).toBe('inc-7-disk-full-2');
    expect(incidentChannelName(7, '🔥🔥🔥')).toBe('inc-7');
    expect(incidentChannelName(7, '🔥🔥🔥', 3)).toBe('inc-7-3');
  });

  it('makes names the chat service accepts (the fake applies Slack’s rules)', () => {
    for (const title of ['Ünïcödé', 'a'.repeat(200), 'UPPER case', '[x] #y', '_']) {
      expect(channelNameError(incidentChannelName(99, title))).toBeNull();
      expect(channelNameError(resolvedChannelName(incidentChannelName(99, title), 2))).toBeNull();
    }
  });
});

describe('resolved names', () => {
  it('asks for the literal first, which no Slack channel can be named', () => {
    expect(resolvedLiteral('inc-42-db-down')).toBe('[RESOLVED] #inc-42-db-down');
    expect(channelNameError(resolvedLiteral('inc-42-db-down'))).toBe('invalid_name_specials');
  });

  it('falls back to resolved-inc-<number>-<slug>, shortened to 80, suffixed when taken', () => {
    expect(resolvedChannelName('inc-42-db-down')).toBe('resolved-inc-42-db-down');
    expect(resolvedChannelName('inc-42-db-down', 2)).toBe('resolved-inc-42-db-down-2');
    expect(resolvedChannelName('inc-42')).toBe('resolved-inc-42');
    const long = incidentChannelName(42, 'z'.repeat(100));
    const resolved = resolvedChannelName(long);
    expect(resolved.length).toBe(CHANNEL_NAME_MAX_LENGTH);
    expect(resolved.startsWith('resolved-inc-42-zzz')).toBe(true);
  });
});
