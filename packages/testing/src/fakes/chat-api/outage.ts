import type { IncomingMessage, ServerResponse } from 'node:http';

export interface OutageOptions {
  /** `error`: answer `status` (default 500) with an HTML page. `close`: drop the connection unanswered. */
  mode?: 'error' | 'close';
  status?: number;
  /** End after this many requests... */
  requests?: number;
  /** ...or after this many milliseconds. Neither: until `end()`. */
  durationMs?: number;
}

/**
 * The Web API being down. It acts on the raw socket, before hono, so `close` can hang up without any
 * HTTP answer, which is what a client sees when the service is unreachable.
 */
export class Outage {
  private state: (OutageOptions & { until?: number }) | undefined;

  start(options: OutageOptions): void {
    const until = options.durationMs === undefined ? undefined : Date.now() + options.durationMs;
    this.state = { mode: 'error', status: 500, ...options, until };
  }

  end(): void {
    this.state = undefined;
  }

  /** Returns the HTTP status given (0 for a dropped connection), or null when the request may pass. */
  intercept(req: IncomingMessage, res: ServerResponse): number | null {
    const state = this.state;
    if (!state) return null;
    if ((state.until !== undefined && Date.now() >= state.until) || state.requests === 0) {
      this.state = undefined;
      return null;
    }
    if (state.requests !== undefined) state.requests -= 1;
    if (state.mode === 'close') {
      req.socket.destroy();
      return 0;
    }
    const status = state.status ?? 500;
    // An HTML error page, like a load balancer in front of a failing service; not the JSON envelope.
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end(`<html><body><h1>${status}</h1></body></html>`);
    return status;
  }
}
