/**
 * What a personal-paging sender reports back (docs/paging.md). Senders never throw for a refusal by the
 * provider: they say whether a later try could succeed, so the delivery row records the right state.
 */
export type SendOutcome =
  | {
      ok: true;
      /** The provider's id for the message or call (Twilio's SID, the mail's Message-ID…), for the logs. */
      providerId?: string;
    }
  | {
      ok: false;
      /** True for a timeout, a 5xx or a rate limit; false when the provider refused the request itself. */
      retryable: boolean;
      /** From the provider's `Retry-After`, when it sent one. */
      retryAfterMs?: number;
      /** True when the address no longer exists (a push subscription answered 404/410): stop using it. */
      gone?: boolean;
      /** A short reason for the logs and the delivery row; never a secret. */
      error: string;
    };
