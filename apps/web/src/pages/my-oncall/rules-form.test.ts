import { describe, expect, it } from 'vitest';
import type { ContactMethod } from '../../lib/oncall-types';
import { contactsFor, describeContact, newRow, rowsOf, rulesOf } from './rules-form';

const PHONE = '00000000-0000-4000-8000-0000000000c1';

describe('the notification rules editor', () => {
  it('reads rules into rows and sends them back in the same order', () => {
    const rules = [
      { method: 'chat' as const, delay_minutes: 0 },
      { method: 'sms' as const, delay_minutes: 5, contact_method_id: PHONE },
      { method: 'voice' as const, delay_minutes: 10, contact_method_id: null },
    ];
    expect(rulesOf(rowsOf(rules))).toEqual({
      rules: [
        { method: 'chat', delay_minutes: 0 },
        { method: 'sms', delay_minutes: 5, contact_method_id: PHONE },
        { method: 'voice', delay_minutes: 10 },
      ],
    });
  });

  it('refuses a delay that is not whole minutes within a day, naming the rule', () => {
    const rows = rowsOf([{ method: 'email', delay_minutes: 0 }]);
    expect(rulesOf([...rows, { ...rows[0]!, delayMinutes: '2.5' }])).toEqual({
      error: 'Rule 2: the delay is whole minutes from 0 to 1440.',
    });
    expect(rulesOf([{ ...rows[0]!, delayMinutes: '1441' }])).toMatchObject({ error: expect.any(String) });
    expect(rulesOf([{ ...rows[0]!, delayMinutes: '' }])).toMatchObject({ error: expect.any(String) });
  });

  it('sends a chat rule at once, whatever delay was typed before choosing chat', () => {
    const [row] = rowsOf([{ method: 'email', delay_minutes: 15 }]);
    expect(rulesOf([{ ...row!, method: 'chat', contactId: 'x' }])).toEqual({
      rules: [{ method: 'chat', delay_minutes: 0 }],
    });
  });

  it('adds the first rule as chat at once, and later ones five minutes after the last', () => {
    const first = newRow([]);
    expect(first).toMatchObject({ method: 'chat', delayMinutes: '0' });
    expect(newRow([first, { ...first, delayMinutes: '10' }])).toMatchObject({ delayMinutes: '15' });
  });

  it('offers a rule only the contacts of its kind', () => {
    const base = { label: null, verified: true, verified_at: null, disabled_reason: null, created_at: '' };
    const contacts: ContactMethod[] = [
      { ...base, id: PHONE, type: 'sms', address: '+15550100' },
      { ...base, id: 'e', type: 'email', address: 'me@example.test' },
    ];
    expect(contactsFor('sms', contacts).map((c) => c.id)).toEqual([PHONE]);
    expect(contactsFor('chat', contacts)).toEqual([]);
  });

  it('describes a contact by its label and address, a browser by its push service', () => {
    const base = { verified: true, verified_at: null, disabled_reason: null, created_at: '', label: null };
    expect(describeContact({ ...base, id: 'a', type: 'sms', address: '+15550100' })).toBe('+15550100');
    expect(describeContact({ ...base, id: 'b', type: 'sms', address: '+15550100', label: 'Work' })).toBe(
      'Work (+15550100)',
    );
    expect(describeContact({ ...base, id: 'c', type: 'push', address: 'https://push.example' })).toBe(
      'Browser via https://push.example',
    );
  });
});
