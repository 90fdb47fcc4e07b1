// The built UI the browser tests load. `pnpm test` builds it before vitest (scripts/test.sh), so CI
// always tests the current sources; a developer running one e2e file gets a build if there is none.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../../..');
export const webRoot = resolve(repoRoot, 'apps/web/dist');

export function ensureWebBuild(): string {
  if (!existsSync(resolve(webRoot, 'index.html'))) {
    execFileSync('pnpm', ['--filter', '@firebreak/web', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  }
  return webRoot;
}
