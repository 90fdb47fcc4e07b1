import type { AppEnv } from '@firebreak/http';
import type { Hono } from 'hono';
import { createDocument } from 'zod-openapi';
import { configurationPaths } from '../openapi/configuration-paths';
import { importPaths } from '../openapi/import-paths';
import { incidentPaths } from '../openapi/incident-paths';
import { oncallPaths } from '../openapi/oncall-paths';

/**
 * `GET /api/v1/openapi.json`: generated from the same zod schemas that validate the requests, so the
 * document cannot drift from the behaviour. Public, like the API's shape itself.
 */
export function addOpenApiRoute(app: Hono<AppEnv>): void {
  let document: ReturnType<typeof createDocument> | undefined;
  app.get('/api/v1/openapi.json', (c) => {
    document ??= createDocument({
      openapi: '3.1.0',
      info: { title: 'Firebreak API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      paths: { ...configurationPaths, ...incidentPaths, ...oncallPaths, ...importPaths },
    });
    return c.json(document);
  });
}
