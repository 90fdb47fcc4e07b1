/** What one drill reports: a verdict, the numbers it measured, and why it failed when it did. */
export interface DrillOutcome {
  pass: boolean;
  /** Measured numbers (and a few facts), printed in the table and written to the JSON. */
  numbers: Record<string, number | string>;
  /** Why the drill failed; absent when it passed. */
  reason?: string;
}

export interface DrillResult extends DrillOutcome {
  name: string;
  seconds: number;
}

/** Registers clean-up work that runs however the drill ends (pass, fail, throw or timeout). */
export type Defer = (cleanup: () => Promise<unknown> | unknown) => void;

export interface Drill<Options = Record<string, never>> {
  name: string;
  /** One line for the table: the promise the drill checks. */
  promise: string;
  /** The longest the drill may take (set-up and clean-up included) before it counts as failed. */
  timeoutMs: number;
  run(defer: Defer, options: Partial<Options>): Promise<DrillOutcome>;
}
