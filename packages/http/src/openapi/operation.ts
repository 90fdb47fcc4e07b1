import { AppError, parseOrThrow, type Role } from '@firebreak/schema';
import { createRoute, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { isApiPath } from '../api-paths';
import type { RequireRole } from '../auth';
import { readJson } from '../body';
import type { AppEnv } from '../env';
import { errorAnswers } from './responses';

/** Every Firebreak app is one of these: its routes and its OpenAPI registry travel together. */
export type HttpApp = OpenAPIHono<AppEnv>;

/** Who may call an operation: anyone with at least this role (`requireRole`), or anyone at all. */
export type Access = Role | 'public';

export type OperationConfig = Omit<RouteConfig, 'middleware' | 'hide' | 'security'> & { access: Access };

/**
 * One `/api/v1` operation, written once: the path and method the router registers, the role its guard
 * checks, the schemas that validate its request, and its answers. The OpenAPI document is generated
 * from the same object, so the two cannot drift apart.
 */
export function defineOperation<const C extends OperationConfig>(config: C) {
  const guarded = config.access !== 'public';
  const who =
    config.access === 'public'
      ? 'Public: no token needed.'
      : `Needs the \`${config.access}\` role or higher.`;
  return createRoute({
    ...config,
    description: config.description ? `${config.description}\n\n${who}` : who,
    security: guarded ? [{ bearer: [] }] : [],
    responses: {
      ...config.responses,
      ...errorAnswers(...(guarded ? [401] : []), ...(isApiPath(config.path) ? [429] : []), 500),
    },
  });
}

export type Operation = ReturnType<typeof defineOperation<OperationConfig>>;

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type RequestPart<R, K extends string> = [R] extends [{ request: { [P in K]: infer S } }]
  ? Parsed<S>
  : undefined;
type JsonBodyOf<R> = [R] extends [
  { request: { body: { content: { 'application/json': { schema: infer S } } } } },
]
  ? Parsed<S>
  : undefined;

/** What a handler receives: the request's parts, each already checked against its schema. */
export interface OperationInput<R> {
  params: RequestPart<R, 'params'>;
  query: RequestPart<R, 'query'>;
  body: JsonBodyOf<R>;
}

export type OperationHandler<R> = (
  c: Context<AppEnv>,
  input: OperationInput<R>,
) => Response | Promise<Response>;

export interface Operations {
  /**
   * Registers `operation` on the app and in its OpenAPI document. The request is checked in the order
   * the API has always answered: role (401/403), then `before` (e.g. a feature that is not configured),
   * then path parameters (404), query (400), body (415, 400 `invalid_json`, 400 `validation_failed`).
   */
  add<R extends Operation>(
    operation: R,
    handler: OperationHandler<R>,
    options?: { before?: MiddlewareHandler<AppEnv>[] },
  ): void;
}

/**
 * The registrar of the API's validated operations. The library's own validators are not used: they
 * answer a malformed body and a wrong content type differently from the API's rules
 * (docs/api.md#requests), and skip the depth and NUL checks of `readJson`; the same schemas go through the
 * functions every route used before.
 */
export function createOperations(app: HttpApp, requireRole: RequireRole): Operations {
  return {
    add(operation, handler, options = {}) {
      const { access, ...route } = operation;
      app.openAPIRegistry.registerPath({ ...route, 'x-firebreak-access': access });
      const guard = access === 'public' ? [] : [requireRole(access)];
      app.on(
        [operation.method.toUpperCase()],
        [operation.getRoutingPath()],
        ...guard,
        ...(options.before ?? []),
        async (c) => handler(c, (await readInput(c, operation)) as OperationInput<typeof operation>),
      );
    },
  };
}

/**
 * Registers a route that reads its request itself, described in the OpenAPI document from `operation`
 * but never validated from it: webhooks and chat read the raw body, since signatures are computed over
 * the exact bytes.
 */
export function addRawOperation(
  app: HttpApp,
  operation: Operation,
  handler: (c: Context<AppEnv>) => Response | Promise<Response>,
): void {
  const { access, ...route } = operation;
  app.openAPIRegistry.registerPath({ ...route, 'x-firebreak-access': access });
  app.on([operation.method.toUpperCase()], [operation.getRoutingPath()], handler);
}

async function readInput(c: Context<AppEnv>, operation: Operation) {
  const request = operation.request;
  const params = isSchema(request?.params) ? parseParams(c, request.params) : undefined;
  const query = isSchema(request?.query) ? parseOrThrow(request.query, c.req.query()) : undefined;
  const json = request?.body?.content['application/json'];
  const bodySchema = json && 'schema' in json ? json.schema : undefined;
  const body = isSchema(bodySchema) ? await readJson(c, bodySchema) : undefined;
  return { params, query, body };
}

/**
 * A path parameter that cannot name a record (not a UUID, say) is simply not found, as an unknown one
 * is: 404 with the message the parameter's schema gives.
 */
function parseParams(c: Context<AppEnv>, schema: z.ZodType): unknown {
  const result = schema.safeParse(c.req.param());
  if (result.success) return result.data;
  throw new AppError('not_found', result.error.issues[0]?.message ?? 'No such record.');
}

function isSchema(value: unknown): value is z.ZodType {
  return typeof (value as z.ZodType | undefined)?.safeParse === 'function';
}
