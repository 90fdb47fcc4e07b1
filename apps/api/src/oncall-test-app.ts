// The on-call route tests' own API app on a fresh database (schedules, overrides, escalation policies):
// one person of each role, and two members, Ana and Ben, to take turns and be paged by name.
import { oneUserPerRole, startTestApp, type TestUserSpec } from '@firebreak/runtime/testing';
import { createApp } from './app';

const people = {
  ...oneUserPerRole,
  ana: { role: 'member', name: 'Ana Alves' },
  ben: { role: 'member', name: 'Ben Brandt' },
} as const satisfies Record<string, TestUserSpec>;

/** The runtime, the API's client and the people by name; call `runtime.cleanup()` after the file. */
export async function startOnCallTestApp() {
  const { runtime, api, users } = await startTestApp(createApp, { users: people });
  return { runtime, api, ...users };
}
