import { type AlertInput, AppError, toValidationIssues, type ValidationIssue } from '@firebreak/schema';

/**
 * What every alert-source parser returns. Parsers return a value instead of throwing: a bad payload is
 * expected input, not a bug, and callers differ in what they do with it (the ingest app answers 400 with
 * the problems as `details`, a replay of a stored payload logs and skips). So a parser never throws, for
 * any JSON value; `alertsOrThrow` turns a rejection into the API's `validation_failed` error
 * (docs/api.md#validation-errors).
 * `ignored` explains accepted input that produced no alert (e.g. a CloudWatch INSUFFICIENT_DATA state).
 */
export type ParseResult =
  | { ok: true; alerts: AlertInput[]; ignored?: string[] }
  | { ok: false; problems: ValidationIssue[] };

export function accepted(alerts: AlertInput[], ignored?: string[]): ParseResult {
  return ignored?.length ? { ok: true, alerts, ignored } : { ok: true, alerts };
}

export function rejected(problems: ValidationIssue[]): ParseResult {
  return { ok: false, problems };
}

/** One `{path, message}` per zod issue (`alerts[3].title`); `prefix` re-roots paths of a nested document. */
export function problemsOf(
  error: Parameters<typeof toValidationIssues>[0],
  prefix?: string,
): ValidationIssue[] {
  const problems = toValidationIssues(error);
  if (prefix === undefined) return problems;
  return problems.map(({ path, message }) => ({
    path: path === '' ? prefix : path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`,
    message,
  }));
}

/** The alerts of an accepted result; a rejection becomes 400 `validation_failed` with the problems as details. */
export function alertsOrThrow(result: ParseResult): AlertInput[] {
  if (result.ok) return result.alerts;
  throw new AppError('validation_failed', 'The request is not valid.', result.problems);
}
