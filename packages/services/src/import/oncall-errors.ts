import { AppError } from '@firebreak/schema';

/**
 * What can go wrong talking to Grafana OnCall, as errors that say what to fix. Problems the caller can
 * fix in the request (the URL, the token) are 400 `validation_failed` at `url` or `api_token`, like any
 * invalid field; problems on OnCall's side that may pass (timeouts, 5xx, throttling beyond what is
 * worth waiting for) are 503 `service_unavailable`. None of them carries the token.
 */

const URL_HINT =
  'give the "OnCall API URL" shown on OnCall → Settings, e.g. https://oncall.example.com/oncall';

export function badUrl(message: string): AppError {
  return new AppError('validation_failed', message, [{ path: 'url', message }]);
}

export function unreachable(origin: string, cause: string): AppError {
  return badUrl(`Could not connect to Grafana OnCall at ${origin} (${cause}); check the URL.`);
}

export function notOnCall(where: string, what: string): AppError {
  return badUrl(`${where} ${what}; this does not look like the Grafana OnCall API: ${URL_HINT}.`);
}

export function tokenRefused(status: number, detail: string | undefined): AppError {
  const message = `Grafana OnCall refused the API token (HTTP ${status}${detail ? `: ${detail}` : ''}).`;
  return new AppError('validation_failed', message, [{ path: 'api_token', message }]);
}

export function timedOut(where: string, seconds: number): AppError {
  return new AppError('service_unavailable', `Grafana OnCall did not answer ${where} within ${seconds} s.`);
}

export function sourceFailed(where: string, status: number): AppError {
  return new AppError(
    'service_unavailable',
    `Grafana OnCall answered HTTP ${status} for ${where}; try again later.`,
    { retry_after_seconds: 30 },
  );
}

export function stillThrottled(where: string, waitSeconds: number): AppError {
  return new AppError(
    'service_unavailable',
    `Grafana OnCall keeps throttling ${where} (it asks to wait ${waitSeconds} s); try again later.`,
    { retry_after_seconds: waitSeconds },
  );
}
