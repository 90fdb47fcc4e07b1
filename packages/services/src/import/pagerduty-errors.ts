import { AppError } from '@firebreak/schema';

/**
 * What can go wrong talking to PagerDuty, as errors that say what to fix (the same vocabulary as the
 * OnCall import): what the caller can fix in the request (the URL, the token) is 400 `validation_failed`
 * at `url` or `api_token`; trouble on PagerDuty's side that may pass (timeouts, 5xx, throttling beyond
 * what is worth waiting for) is 503 `service_unavailable`. None of them carries the token.
 */

const URL_HINT = 'give the REST API host, https://api.pagerduty.com (or https://api.eu.pagerduty.com)';

export function badUrl(message: string): AppError {
  return new AppError('validation_failed', message, [{ path: 'url', message }]);
}

export function unreachable(origin: string, cause: string): AppError {
  return badUrl(`Could not connect to PagerDuty at ${origin} (${cause}); check the URL.`);
}

export function notPagerDuty(where: string, what: string): AppError {
  return badUrl(`${where} ${what}; this does not look like the PagerDuty REST API: ${URL_HINT}.`);
}

/** 401: the key is wrong, revoked, or not a REST API key (an Events API routing key, say). */
export function tokenRefused(status: number, detail: string | undefined): AppError {
  const message = `PagerDuty refused the API token (HTTP ${status}${detail ? `: ${detail}` : ''}); give a REST API key (Integrations → API Access Keys).`;
  return new AppError('validation_failed', message, [{ path: 'api_token', message }]);
}

/** 403: the key is valid but may not read this (a user key of a user with too few rights, say). */
export function accessDenied(where: string, detail: string | undefined): AppError {
  const message = `PagerDuty denied the API token access to ${where} (HTTP 403${detail ? `: ${detail}` : ''}); use a key that can read users, schedules, escalation policies and services.`;
  return new AppError('validation_failed', message, [{ path: 'api_token', message }]);
}

export function timedOut(where: string, seconds: number): AppError {
  return new AppError('service_unavailable', `PagerDuty did not answer ${where} within ${seconds} s.`);
}

export function sourceFailed(where: string, status: number): AppError {
  return new AppError(
    'service_unavailable',
    `PagerDuty answered HTTP ${status} for ${where}; try again later.`,
    { retry_after_seconds: 30 },
  );
}

export function stillThrottled(where: string, waitSeconds: number): AppError {
  return new AppError(
    'service_unavailable',
    `PagerDuty keeps throttling ${where} (it asks to wait ${waitSeconds} s); try again later.`,
    { retry_after_seconds: waitSeconds },
  );
}
