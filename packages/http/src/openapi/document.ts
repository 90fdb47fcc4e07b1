import type { HttpApp } from './operation';

/**
 * The OpenAPI 3.1 document of everything registered on `app` so far. In the combined server every
 * app registers its routes on the same app, so this describes the whole `/api/v1` surface; each
 * split app describes what it serves itself.
 */
export function openApiDocument(app: HttpApp) {
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Firebreak API',
      version: '1.0.0',
      description: 'Errors answer `{error: {code, message, details?, request_id}}`.',
    },
  });
}
