/**
 * How many chat jobs the worker runs at once, given the `requested` number and the database pool's size
 * (`DB_MAX_OPEN_CONNS`). Each job holds one pooled connection for its incident's chat lock for as long as
 * it talks to the chat service, so jobs as many as the pool's connections would leave nothing for the
 * rest of the process (the recovery pass, the readiness probe, and in a one-process start the API and the
 * escalation worker) for as long as the chat service is slow. One connection is always left over.
 */
export function chatConcurrency(requested: number, poolSize: number): number {
  return Math.max(1, Math.min(requested, poolSize - 1));
}
