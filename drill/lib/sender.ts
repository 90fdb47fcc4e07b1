import { sleep } from './harness';

export interface SenderOptions {
  /** Base URL of the service. */
  url: string;
  /** Alerts per second, one alert per request, each with a fresh `external_id`. */
  ratePerSecond: number;
  /** `critical` opens an incident per alert (default rule), so chat and escalation work follows. */
  severity?: 'critical' | 'warning' | 'info';
  prefix: string;
  /** Told of every answer (0 = no connection), with when its request was sent and answered. */
  onAnswer?: (status: number, sentAt: number, answeredAt: number) => void;
}

export interface SenderStats {
  /** Alerts whose delivery was started. */
  sent: number;
  /** Alerts the service answered 200 (after however many tries). */
  acknowledged: number;
  /** Tries answered 5xx or failed to connect, each retried. */
  retries: number;
  /** Alerts still unacknowledged when the sender gave up. */
  gaveUp: number;
  /** Answers by status (`0` = no connection), first tries and retries alike. */
  statuses: Record<string, number>;
  /** Codes of the error envelopes received. */
  errorCodes: Record<string, number>;
}

/**
 * A sender that behaves like Alertmanager and its kin: steady alerts, and every delivery retried on a
 * 5xx answer or a connection error until it is answered 200. It remembers every `external_id` it sent
 * so that the drill can check each exists exactly once at the end.
 */
export class AlertSender {
  readonly ids: string[] = [];
  readonly stats: SenderStats = {
    sent: 0,
    acknowledged: 0,
    retries: 0,
    gaveUp: 0,
    statuses: {},
    errorCodes: {},
  };
  private running = false;
  private readonly deliveries: Promise<void>[] = [];
  private loop: Promise<void> | undefined;
  private giveUpAt = Number.POSITIVE_INFINITY;

  constructor(private readonly options: SenderOptions) {}

  start(): this {
    this.running = true;
    this.loop = this.run();
    return this;
  }

  /** Stops sending new alerts and waits (at most `drainMs`) for the unanswered ones to be delivered. */
  async stop(drainMs = 60_000): Promise<SenderStats> {
    this.running = false;
    await this.loop;
    this.giveUpAt = Date.now() + drainMs;
    await Promise.all(this.deliveries);
    return this.stats;
  }

  private async run(): Promise<void> {
    const interval = 1000 / this.options.ratePerSecond;
    let next = Date.now();
    for (let i = 0; this.running; i++) {
      const id = `${this.options.prefix}-${i}`;
      this.ids.push(id);
      this.stats.sent += 1;
      this.deliveries.push(this.deliver(id));
      next += interval;
      await sleep(Math.max(0, next - Date.now()));
    }
  }

  private async deliver(externalId: string): Promise<void> {
    const body = JSON.stringify({
      alerts: [
        {
          title: `Drill alert ${externalId}`,
          severity: this.options.severity ?? 'critical',
          external_id: externalId,
          labels: { drill: this.options.prefix },
        },
      ],
    });
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) {
        if (Date.now() > this.giveUpAt) {
          this.stats.gaveUp += 1;
          return;
        }
        this.stats.retries += 1;
        await sleep(Math.min(2000, 250 * attempt));
      }
      const status = await this.post(body);
      if (status === 200) {
        this.stats.acknowledged += 1;
        return;
      }
      if (status !== 0 && status < 500) return; // a sender does not retry a refusal
    }
  }

  private async post(body: string): Promise<number> {
    const sentAt = Date.now();
    const status = await this.send(body);
    this.options.onAnswer?.(status, sentAt, Date.now());
    return status;
  }

  private async send(body: string): Promise<number> {
    try {
      const res = await fetch(`${this.options.url}/api/v1/webhooks/generic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      this.count(this.stats.statuses, String(res.status));
      if (res.status !== 200) {
        const error = ((await res.json().catch(() => ({}))) as { error?: { code?: string } }).error;
        this.count(this.stats.errorCodes, error?.code ?? 'no envelope');
      } else await res.arrayBuffer();
      return res.status;
    } catch {
      this.count(this.stats.statuses, '0');
      return 0;
    }
  }

  private count(map: Record<string, number>, key: string): void {
    map[key] = (map[key] ?? 0) + 1;
  }
}
