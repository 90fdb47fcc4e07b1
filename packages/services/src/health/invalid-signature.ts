import type { ServiceContext } from '../context';

// A sender with the wrong secret keeps sending: one line per burst, not per request.
const FORGET_AFTER_MS = 5 * 60 * 1000;

/**
 * A request refused for its signature (docs/runbooks/invalid-signature.md). Logged once per
 * integration until five minutes pass without another; each one is counted in `/metrics`.
 */
export function reportInvalidSignature(
  ctx: Pick<ServiceContext, 'failures'>,
  integration: string,
  fields: Record<string, unknown> = {},
): void {
  ctx.failures.failed(
    `signature:${integration}`,
    { reason: 'invalid_signature', line: 'invalid_signature', fields: { integration, ...fields } },
    'default',
    { forgetAfterMs: FORGET_AFTER_MS },
  );
}
