import { readFileSync } from 'node:fs';

/**
 * Test support, not part of the package API: a fresh copy of `fixtures/<name>.json` (payloads as each
 * sender posts them, described in docs/integrations/alert-webhooks.md), typed loosely so a test can break
 * exactly the field it is about.
 */
// biome-ignore lint/suspicious/noExplicitAny: tests mutate fixtures at arbitrary depth.
export type Fixture = Record<string, any>;

export function loadFixture(name: string): Fixture {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
}
