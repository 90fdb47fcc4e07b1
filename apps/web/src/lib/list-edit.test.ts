import { describe, expect, it } from 'vitest';
import { moveItem, removeAt, replaceAt, rowKey } from './list-edit';

describe('editing an ordered list', () => {
  it('moves an item up and down, and leaves the list alone at its ends', () => {
    expect(moveItem(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('removes and replaces by position without touching the original', () => {
    const list = ['a', 'b', 'c'];
    expect(removeAt(list, 1)).toEqual(['a', 'c']);
    expect(replaceAt(list, 1, 'B')).toEqual(['a', 'B', 'c']);
    expect(list).toEqual(['a', 'b', 'c']);
  });

  it('gives every new row its own key', () => {
    expect(rowKey()).not.toBe(rowKey());
  });
});
