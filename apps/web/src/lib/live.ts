/**
 * Live updates are polling (docs/decisions.md, "Web UI"): lists and the open incident refresh every
 * 2.5 s; react-query stops polling while the tab is hidden and refreshes at once when it is shown again.
 */
export const LIVE_INTERVAL_MS = 2500;
/** Status counts read up to 1000 incidents per status, so they refresh less often. */
export const COUNTS_INTERVAL_MS = 10_000;
export const COUNT_CAP = 1000;
