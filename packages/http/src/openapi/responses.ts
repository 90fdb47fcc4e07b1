import { ErrorBody, errorStatus } from '@firebreak/schema';
import type { z } from 'zod';

/** A JSON request or response body with its schema, as the OpenAPI route definitions write it. */
export const jsonContent = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });

/** A required JSON request body. */
export const jsonBody = <S extends z.ZodType>(schema: S, description?: string) => ({
  content: jsonContent(schema),
  required: true as const,
  ...(description ? { description } : {}),
});

/** One documented answer: a description, and the JSON schema of its body when it has one. */
export function answer(description: string, schema?: z.ZodType) {
  return schema ? { description, content: jsonContent(schema) } : { description };
}

/** The error codes that answer with `status`, read from the one vocabulary so the two cannot differ. */
function codesOf(status: number): string {
  return Object.entries(errorStatus)
    .filter(([, codeStatus]) => codeStatus === status)
    .map(([code]) => `\`${code}\``)
    .join(', ');
}

/** The error envelope under each of `statuses`. */
export function errorAnswers(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [String(status), answer(`Error: ${codesOf(status)}`, ErrorBody)]),
  );
}
