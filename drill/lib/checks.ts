import { withSql } from './service';

export interface AlertCount {
  /** Sent external_ids with no alert in the database. */
  missing: number;
  /** Sent external_ids stored more than once. */
  duplicated: number;
}

/** "No alert lost, none duplicated": every external_id the senders sent, exactly once in `alerts`. */
export async function alertsExactlyOnce(databaseUrl: string, externalIds: string[]): Promise<AlertCount> {
  const rows = await withSql(
    databaseUrl,
    (sql) => sql<{ external_id: string; n: number }[]>`
      select external_id, count(*)::int as n from alerts
      where external_id = any(${externalIds}) group by external_id`,
  );
  const stored = new Map(rows.map((row) => [row.external_id, row.n]));
  return {
    missing: externalIds.filter((id) => !stored.has(id)).length,
    duplicated: rows.filter((row) => row.n > 1).length,
  };
}

/** Polls `/ready` (and an authenticated API read) until stopped; counts what was not answered as it should be. */
export class Prober {
  readonly answers: Record<string, number> = {};
  private running = true;
  private readonly loop: Promise<void>;

  constructor(
    private readonly service: { url: string; token: string },
    private readonly path: string,
    private readonly intervalMs = 250,
  ) {
    this.loop = this.run();
  }

  async stop(): Promise<Record<string, number>> {
    this.running = false;
    await this.loop;
    return this.answers;
  }

  /** Answers other than `status`. */
  failures(status = 200): number {
    return Object.entries(this.answers)
      .filter(([answer]) => answer !== String(status))
      .reduce((sum, [, n]) => sum + n, 0);
  }

  private async run(): Promise<void> {
    while (this.running) {
      let answer: string;
      try {
        const res = await fetch(`${this.service.url}${this.path}`, {
          headers: { authorization: `Bearer ${this.service.token}` },
          signal: AbortSignal.timeout(5000),
        });
        await res.arrayBuffer();
        answer = String(res.status);
      } catch {
        answer = 'no answer';
      }
      this.answers[answer] = (this.answers[answer] ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
    }
  }
}
