import { ErrorBody } from '@firebreak/schema';
import type { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';

export type Paths = ZodOpenApiPathsObject;

export const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });

export const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { description: 'Error', ...json(ErrorBody) }]));

export const ok = (status: number, description: string, schema?: z.ZodType) => ({
  [String(status)]: schema ? { description, ...json(schema) } : { description },
});

/** An operation of the authenticated API: bearer token, and the errors every such route can give. */
export function op(
  summary: string,
  responses: ZodOpenApiOperationObject['responses'],
  extra: Partial<ZodOpenApiOperationObject> = {},
): ZodOpenApiOperationObject {
  return {
    summary,
    security: [{ bearer: [] }],
    ...extra,
    responses: { ...responses, ...errors(401, 429, 500) },
  };
}
