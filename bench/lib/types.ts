/** One measured number, printed beside its target. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** `<=`: the value must not exceed the target; `>=`: it must reach it. */
  target?: { op: '<=' | '>='; value: number };
}

export interface BenchEnvironment {
  /** Base URL of a production bundle of `pnpm start`, on a private PostgreSQL and Redis. */
  url: string;
  /** An admin session token. */
  adminToken: string;
  /** PostgreSQL URL of the server's database (for seeding). */
  databaseUrl: string;
  redisUrl: string;
  /** The server's process (its HTTP processes are its children), for CPU and memory readings. */
  serverPid: number;
}

export interface Benchmark {
  name: string;
  run(env: BenchEnvironment): Promise<BenchResult[]>;
}

export function passes(result: BenchResult): boolean | undefined {
  if (!result.target) return undefined;
  return result.target.op === '<='
    ? result.value <= result.target.value
    : result.value >= result.target.value;
}
