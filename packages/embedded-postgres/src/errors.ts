/**
 * A reason the embedded PostgreSQL cannot start that the person starting Firebreak must act on (a
 * directory the server's user cannot enter, no user to run it as). The message is one line saying why
 * and what to do, meant to be logged as it is, without a stack trace.
 */
export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';
}
