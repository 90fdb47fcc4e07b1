import type { z } from 'zod';
import { AppError, type ValidationIssue } from './errors';

/**
 * Renders zod's issue paths as error details show them: `alerts[3].title`
 * (docs/api.md#validation-errors).
 */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

export function toValidationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: formatIssuePath(issue.path),
    message: issue.message,
  }));
}

/** Parses `input` or throws 400 `validation_failed` with one `{path, message}` per problem. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new AppError('validation_failed', 'The request is not valid.', toValidationIssues(result.error));
}
