/** The first replacement of a crashed HTTP process waits this long; each crash in a row doubles it. */
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;
/** A process that served this long before it crashed was not part of a crash loop. */
export const HEALTHY_AFTER_MS = 60_000;

/**
 * How long to wait before replacing an HTTP process that exited on its own, given how many crashed in a
 * row in its place (this one included): 1 s, 2 s, 4 s … up to 30 s, so a process that dies at start
 * (a bad deploy, a full disk) costs a line every 30 s rather than a spinning CPU.
 */
export function replacementDelayMs(crashesInARow: number): number {
  const doublings = Math.max(0, crashesInARow - 1);
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(doublings, 10));
}
