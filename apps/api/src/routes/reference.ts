import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AppEnv, addRawOperation, type HttpApp, openApiDocument } from '@firebreak/http';
import { Scalar } from '@scalar/hono-api-reference';
import { referenceOperations as op } from '../operations/reference';

// The page runs only our own scripts, the inline one by nonce, and talks to nobody but this server.
const pageCsp = (nonce: string) =>
  [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');

const pageConfig = {
  url: op.document.path,
  cdn: op.script.path,
  pageTitle: 'Firebreak API reference',
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
} as const;

/**
 * `GET /api/v1/openapi.json`, generated from the routes registered on `app` when first asked (in the
 * combined server, every app's), and `GET /api/v1/docs`, the rendered reference. Both are public, like
 * the API's shape itself. The page's script is served from the installed package, not a CDN, so the
 * reference works on a network that reaches nothing else.
 */
export function addReferenceRoutes(app: HttpApp): void {
  let document: ReturnType<typeof openApiDocument> | undefined;
  addRawOperation(app, op.document, (c) => {
    document ??= openApiDocument(app);
    return c.json(document);
  });

  addRawOperation(app, op.page, async (c) => {
    const nonce = randomBytes(16).toString('base64');
    c.header('Content-Security-Policy', pageCsp(nonce));
    c.header('X-Frame-Options', 'DENY');
    c.header('Cache-Control', 'no-cache');
    const page = await Scalar<AppEnv>({ ...pageConfig, nonce })(c, async () => {});
    return page ?? c.notFound();
  });

  let script: Promise<Buffer> | undefined;
  addRawOperation(app, op.script, async (c) => {
    // A failed read is not kept: the next request tries again.
    script ??= readFile(scalarScriptPath()).catch((error: unknown) => {
      script = undefined;
      throw error;
    });
    return c.body(new Uint8Array(await script), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
    });
  });
}

/**
 * Beside a production bundle (`dist/api-reference/`, copied there by the build: a bundle of the
 * embedded server cannot resolve a package only the API app lists), else the installed package.
 */
function scalarScriptPath(): string {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'api-reference', 'standalone.js');
  if (existsSync(bundled)) return bundled;
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  return join(dirname(entry), 'browser', 'standalone.js');
}
