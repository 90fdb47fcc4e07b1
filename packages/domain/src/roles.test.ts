import { describe, expect, it } from 'vitest';
import { roleAllows } from './roles';

describe('roleAllows', () => {
  it('orders admin over member over viewer', () => {
    expect(roleAllows('admin', 'admin')).toBe(true);
    expect(roleAllows('admin', 'viewer')).toBe(true);
    expect(roleAllows('member', 'member')).toBe(true);
    expect(roleAllows('member', 'admin')).toBe(false);
    expect(roleAllows('viewer', 'member')).toBe(false);
    expect(roleAllows('viewer', 'viewer')).toBe(true);
  });
});
