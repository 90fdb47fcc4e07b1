import { describe, expect, it } from 'vitest';
import { textAfterSend, type Unsaved, unsavedAfterSave } from './unsaved-edits';

describe('unsavedAfterSave', () => {
  const sent: Unsaved = { content: '## Summary\n\nDeploy 412.', status: 'draft', baseVersion: 3 };

  it('leaves nothing to save when nothing changed while the save was on its way', () => {
    expect(unsavedAfterSave({ ...sent }, sent, 4)).toBeNull();
    expect(unsavedAfterSave(null, sent, 4)).toBeNull();
  });

  it('keeps text typed during the save, based on the version the save made', () => {
    const typed = { ...sent, content: `${sent.content} Rolled back.` };
    expect(unsavedAfterSave(typed, sent, 4)).toEqual({ ...typed, baseVersion: 4 });
  });

  it('keeps a status chosen during the save', () => {
    const moved = { ...sent, status: 'in_review' as const };
    expect(unsavedAfterSave(moved, sent, 4)).toEqual({ ...moved, baseVersion: 4 });
  });
});

describe('textAfterSend', () => {
  it('empties the field for the next entry', () => {
    expect(textAfterSend('Looks good', 'Looks good')).toBe('');
  });

  it('keeps what was typed after sending', () => {
    expect(textAfterSend('Looks good, but', 'Looks good')).toBe('Looks good, but');
  });
});
