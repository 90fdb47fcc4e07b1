import { AppError } from '@firebreak/schema';

/**
 * What can go wrong talking to Opsgenie, as errors that say what to fix (the vocabulary of
 * oncall-errors.ts): the request's own fields (the host, the key) are 400 `validation_failed` at `url`
 * or `api_key`; trouble on Opsgenie's side that may pass is 503 `service_unavailable`. None carries the key.
 */

const URL_HINT = 'give https://api.opsgenie.com, or https://api.eu.opsgenie.com for an EU account';

export function badOpsgenieUrl(message: string): AppError {
  return new AppError('validation_failed', message, [{ path: 'url', message }]);
}

export function opsgenieUnreachable(origin: string, cause: string): AppError {
  return badOpsgenieUrl(`Could not connect to Opsgenie at ${origin} (${cause}); check the URL.`);
}

export function notOpsgenie(where: string, what: string): AppError {
  return badOpsgenieUrl(`${where} ${what}; this does not look like the Opsgenie API: ${URL_HINT}.`);
}

function keyError(message: string): AppError {
  return new AppError('validation_failed', message, [{ path: 'api_key', message }]);
}

/** 401: no such key (or one of the other region: a US key is unknown to the EU host). */
export function keyRefused(): AppError {
  return keyError(
    'Opsgenie refused the API key (HTTP 401): check the key, and that the URL is your account’s region (EU accounts use https://api.eu.opsgenie.com).',
  );
}

/** 403: the key is valid but may not read the configuration (users, schedules, escalations). */
export function keyWithoutConfigurationAccess(where: string): AppError {
  return keyError(
    `Opsgenie answered HTTP 403 for ${where}: the API key lacks configuration access; give it "Read" and "Configuration access" under Settings → API key management, or use another key.`,
  );
}

export function opsgenieTimedOut(where: string, seconds: number): AppError {
  return new AppError('service_unavailable', `Opsgenie did not answer ${where} within ${seconds} s.`);
}

export function opsgenieFailed(where: string, status: number): AppError {
  return new AppError(
    'service_unavailable',
    `Opsgenie answered HTTP ${status} for ${where}; try again later.`,
    { retry_after_seconds: 30 },
  );
}

export function opsgenieStillThrottled(where: string, waitSeconds: number): AppError {
  return new AppError(
    'service_unavailable',
    `Opsgenie keeps throttling ${where} (it asks to wait ${waitSeconds} s); try again later.`,
    { retry_after_seconds: waitSeconds },
  );
}
