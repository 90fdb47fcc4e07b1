import { users } from '@firebreak/db';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../testing/context';
import { bootstrapAdmin } from './bootstrap-admin';
import { login } from './login';

let t: TestContext;
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(() => t.cleanup());

describe('bootstrapAdmin', () => {
  it('creates admin@localhost with a generated password that logs in', async () => {
    const admin = await bootstrapAdmin(t.ctx, undefined);
    expect(admin?.email).toBe('admin@localhost');
    expect(admin?.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const session = await login(t.ctx, { email: 'admin@localhost', password: admin!.generatedPassword! });
    expect(session.user).toMatchObject({ role: 'admin', email: 'admin@localhost', auth_source: 'local' });
  });

  it('uses BOOTSTRAP_ADMIN_* when given and does not echo the password', async () => {
    const admin = await bootstrapAdmin(t.ctx, { email: 'ops@example.com', password: 'a-long-password' });
    expect(admin).toEqual({ email: 'ops@example.com', generatedPassword: undefined });
    const session = await login(t.ctx, { email: 'ops@example.com', password: 'a-long-password' });
    expect(session.user.role).toBe('admin');
  });

  it('does nothing once any user exists', async () => {
    await users.insertUser(t.ctx.sql, { email: 'someone@example.com', name: 'Someone', role: 'viewer' });
    expect(await bootstrapAdmin(t.ctx, undefined)).toBeUndefined();
    expect(await users.countUsers(t.ctx.sql)).toBe(1);
  });

  it('creates exactly one admin when several processes start at once', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => bootstrapAdmin(t.ctx, undefined)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await users.countUsers(t.ctx.sql)).toBe(1);
  });
});
