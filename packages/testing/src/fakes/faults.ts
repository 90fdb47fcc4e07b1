/**
 * One-shot (or N-shot) faults keyed by what they apply to: a Web API method, an OnCall resource, an AI
 * provider, or `'*'` for everything. The oldest matching fault is used first, so tests can queue a
 * sequence such as "429, then 500, then success".
 */
export class FaultQueue<F> {
  private items: { key: string; fault: F; remaining: number }[] = [];

  add(key: string, fault: F, times = 1): void {
    if (times > 0) this.items.push({ key, fault, remaining: times });
  }

  take(key: string): F | undefined {
    const item = this.items.find((i) => i.key === key || i.key === '*');
    if (!item) return undefined;
    item.remaining -= 1;
    if (item.remaining === 0) this.items.splice(this.items.indexOf(item), 1);
    return item.fault;
  }

  clear(): void {
    this.items = [];
  }
}
