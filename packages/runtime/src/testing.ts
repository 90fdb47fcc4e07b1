// Test harness: a Runtime on a database and Redis key prefix of the test file's own. Imported by
// tests only (`@firebreak/runtime/testing`).
import { type Env, loadConfig } from '@firebreak/config';
import { users } from '@firebreak/db';
import type { Component, Metrics } from '@firebreak/metrics';
import type { Role } from '@firebreak/schema';
import { hashPassword, login } from '@firebreak/services';
import {
  captureLogs,
  createTestDatabase,
  createTestRedisPrefix,
  deleteRedisKeys,
  type LogCapture,
  type RequestTarget,
  type TestClient,
  type TestDatabase,
  testClient,
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

/** A user to make: a role, or a role and a display name a test asserts on. */
export type TestUserSpec = Role | { role: Role; name: string };

/** An admin, a member and a viewer, with names tests can assert on. */
export const oneUserPerRole = {
  admin: { role: 'admin', name: 'Ada Admin' },
  member: { role: 'member', name: 'Mia Member' },
  viewer: { role: 'viewer', name: 'Vic Viewer' },
} as const satisfies Record<string, TestUserSpec>;

export interface TestApp<App, Name extends string> {
  runtime: TestRuntime;
  app: App;
  /** Calls the app in process: `api('PATCH', '/api/v1/incidents/7', { token, body })`. */
  api: TestClient;
  users: Record<Name, TestUser>;
}

/**
 * The set-up every route test repeats: a test runtime, the app built on it the way `main.ts` builds
 * it, a client, and the users the file needs. Call `runtime.cleanup()` after the file.
 */
export async function startTestApp<App extends RequestTarget, Name extends string = never>(
  build: (deps: Pick<Runtime, 'ctx' | 'ready' | 'config'>) => App,
  options: TestRuntimeOptions & { users?: Record<Name, TestUserSpec> } = {},
): Promise<TestApp<App, Name>> {
  const runtime = await createTestRuntime(options);
  const app = build({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config });
  const users = {} as Record<Name, TestUser>;
  // One at a time, in the order given, so that names and e-mail counters read in that order.
  for (const [name, spec] of Object.entries<TestUserSpec>(
    options.users ?? ({} as Record<Name, TestUserSpec>),
  )) {
    const { role, name: displayName } = typeof spec === 'string' ? { role: spec, name: undefined } : spec;
    users[name as Name] = await createTestUser(runtime, role, displayName);
  }
  return { runtime, app, api: testClient(app), users };
}

/** `firebreak_failures_total{component, reason}` as `/metrics` would show it (0 before the first). */
export async function failureCount(metrics: Metrics, component: Component, reason: string): Promise<number> {
  const metric = metrics.registry.getSingleMetric('firebreak_failures_total');
  if (!metric) return 0;
  const { values } = await metric.get();
  return values.find((v) => v.labels.component === component && v.labels.reason === reason)?.value ?? 0;
}
