import { describe, expect, it } from 'vitest';
import { passwordHashSlots } from './hash-slots';
import { generatePassword, hashGeneratedPasswords, hashPassword, verifyPassword } from './passwords';

describe('password hashes', () => {
  it('verify the right password and refuse a wrong one', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
  });

  it('are salted: the same password hashes differently', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('refuse malformed or foreign hashes instead of throwing', async () => {
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
    expect(await verifyPassword('x', '')).toBe(false);
  });

  it('generates long random passwords', () => {
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(generatePassword()).not.toBe(a);
  });

  it('for accounts made in bulk, wait out a busy server instead of being refused, two at a time', async () => {
    // Every slot taken for longer than a login would wait (2 s): a login's hash is refused meanwhile.
    let free!: () => void;
    const busy = new Promise<void>((resolve) => {
      free = resolve;
    });
    const holders = Array.from({ length: passwordHashSlots.limit }, () => passwordHashSlots.run(() => busy));
    const bulk = hashGeneratedPasswords(6);
    await expect(hashPassword('a login meanwhile')).rejects.toMatchObject({ code: 'service_unavailable' });
    free();
    await Promise.all(holders);
    const hashes = await bulk;
    expect(hashes).toHaveLength(6);
    expect(new Set(hashes).size).toBe(6);
    for (const hash of hashes) expect(hash).toMatch(/^scrypt\$32768\$/);
  });
});
