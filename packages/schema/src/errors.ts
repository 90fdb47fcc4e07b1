import { z } from 'zod';

/**
 * The one error vocabulary of the service (docs/api.md#errors). Services throw `AppError`s; each app has
 * one handler that turns them into the envelope `{error: {code, message, details?, request_id}}`.
 */

export const errorStatus = {
  validation_failed: 400,
  invalid_json: 400,
  unauthorized: 401,
  invalid_signature: 401,
  forbidden: 403,
  not_found: 404,
  postmortem_not_found: 404,
  method_not_allowed: 405,
  invalid_transition: 409,
  conflict: 409,
  ai_not_configured: 409,
  incident_not_open: 409,
  no_next_tier: 409,
  no_reachable_target: 409,
  postmortem_conflict: 409,
  template_is_default: 409,
  unavailability_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  database_unavailable: 500,
  service_unavailable: 503,
  busy: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ValidationIssue {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: unknown; request_id: string };
}

export function errorEnvelope(error: AppError, requestId: string): ErrorEnvelope {
  const body: ErrorEnvelope['error'] = { code: error.code, message: error.message, request_id: requestId };
  if (error.details !== undefined) body.details = error.details;
  return { error: body };
}

/** The envelope as a schema, for the OpenAPI document. */
export const ErrorBody = z.object({
  error: z.object({
    code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    details: z.unknown().optional(),
    request_id: z.string(),
  }),
});
