import { describe, expect, it } from 'vitest';
import { parseCommandText } from './command-text';

describe('parseCommandText', () => {
  it('reads every subcommand, with aliases and any case', () => {
    expect(parseCommandText('new Database primary down')).toEqual({
      kind: 'new',
      title: 'Database primary down',
    });
    expect(parseCommandText('ack')).toEqual({ kind: 'acknowledge' });
    expect(parseCommandText('  Acknowledge ')).toEqual({ kind: 'acknowledge' });
    expect(parseCommandText('RESOLVE')).toEqual({ kind: 'resolve' });
    expect(parseCommandText('lead')).toEqual({ kind: 'lead' });
    expect(parseCommandText('note  rolled back\nto 1.4.2 ')).toEqual({
      kind: 'note',
      text: 'rolled back\nto 1.4.2',
    });
    expect(parseCommandText('help')).toEqual({ kind: 'help' });
  });

  it('answers help to nothing and names an unknown word', () => {
    expect(parseCommandText('')).toEqual({ kind: 'help' });
    expect(parseCommandText('   ')).toEqual({ kind: 'help' });
    expect(parseCommandText('archive now')).toEqual({ kind: 'unknown', word: 'archive' });
    expect(parseCommandText('Escalate')).toEqual({ kind: 'escalate' });
    expect(parseCommandText('status')).toEqual({ kind: 'status' });
  });

  it('keeps an empty argument empty, for the usage message', () => {
    expect(parseCommandText('new')).toEqual({ kind: 'new', title: '' });
    expect(parseCommandText('note   ')).toEqual({ kind: 'note', text: '' });
  });
});
