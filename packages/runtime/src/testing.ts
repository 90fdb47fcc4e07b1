// Test harness: a Runtime on a database and Redis key prefix of the test file's own. Imported by
// tests only (`@firebreak/runtime/testing`).
import { type Env, loadConfig } from '@firebreak/config';
import { users } from '@firebreak/db';
import type { Role } from '@firebreak/schema';
import { hashPassword, login } from '@firebreak/services';
import {
  captureLogs,
  createTestDatabase,
  createTestRedisPrefix,
  deleteRedisKeys,
  type LogCapture,
  type TestDatabase,
  testRedisUrl,
} from '@firebreak/testing';
import { createRuntime, type Runtime } from './runtime';

export interface TestRuntime extends Runtime {
  db: TestDatabase;
  logs: LogCapture;
  /** Closes the clients, drops the database and deletes the test's Redis keys. */
  cleanup(): Promise<void>;
}

export interface TestRuntimeOptions {
  /** Extra configuration, as environment variables. */
  env?: Env;
  /** Use this Redis instead of the shared one (e.g. a private server the test stops). */
  redisUrl?: string;
  /** Use this database instead of a fresh clone of the template. */
  databaseUrl?: string;
}

export async function createTestRuntime(options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const db = options.databaseUrl
    ? { name: 'external', url: options.databaseUrl, drop: async () => {} }
    : await createTestDatabase();
  const redisUrl = options.redisUrl ?? testRedisUrl;
  const redisPrefix = createTestRedisPrefix();
  const logs = captureLogs();
  const config = loadConfig({
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    DB_MAX_OPEN_CONNS: '5',
    ...options.env,
  });
  const runtime = createRuntime({ name: 'test', config, logger: logs.logger, redisPrefix });
  return {
    ...runtime,
    db,
    logs,
    cleanup: async () => {
      await runtime.close();
      await db.drop();
      if (!options.redisUrl) await deleteRedisKeys(redisPrefix);
    },
  };
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  role: Role;
  /** A live session token for this user. */
  token: string;
}

let userCounter = 0;

/** A user of the given role with a known password and a session token, made through the services. */
export async function createTestUser(runtime: Runtime, role: Role, name?: string): Promise<TestUser> {
  userCounter += 1;
  const email = `${role}-${userCounter}-${Date.now()}@example.test`;
  const password = `password-${role}-${userCounter}`;
  const row = await users.insertUser(runtime.sql, {
    email,
    name: name ?? `Test ${role} ${userCounter}`,
    role,
    passwordHash: await hashPassword(password),
  });
  const { token } = await login(runtime.ctx, { email, password });
  return { id: row.id, email, password, role, token };
}
